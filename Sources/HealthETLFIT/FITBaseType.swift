/// A FIT field's base type, as the published protocol defines it: the number a definition
/// message carries, the size of one value, and the bit pattern that means "no value". Shared by
/// the `fit` source's decoder and the generator's encoder.
public enum FITBaseType: UInt8, Sendable {
    case enumeration = 0x00
    case sint8 = 0x01
    case uint8 = 0x02
    case sint16 = 0x83
    case uint16 = 0x84
    case sint32 = 0x85
    case uint32 = 0x86
    case string = 0x07
    case float32 = 0x88
    case float64 = 0x89
    case uint8z = 0x0A
    case uint16z = 0x8B
    case uint32z = 0x8C
    case byte = 0x0D
    case sint64 = 0x8E
    case uint64 = 0x8F
    case uint64z = 0x90

    /// The type a definition names; an unknown number reads as bytes (its size is still declared).
    public init(declared: UInt8) {
        // Bit 7 says "endian-sensitive" and the low bits number the type; some writers leave the
        // flag off, so the number alone decides.
        self = FITBaseType.byNumber[Int(declared & 0x1F)] ?? .byte
    }

    private static let byNumber: [Int: FITBaseType] = {
        var table: [Int: FITBaseType] = [:]
        for type in [
            FITBaseType.enumeration, .sint8, .uint8, .sint16, .uint16, .sint32, .uint32, .string, .float32,
            .float64, .uint8z, .uint16z, .uint32z, .byte, .sint64, .uint64, .uint64z,
        ] {
            table[Int(type.rawValue & 0x1F)] = type
        }
        return table
    }()

    /// Bytes of one value (a string counts its bytes, so 1).
    @inlinable public var size: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .uint8z, .byte, .string: return 1
        case .sint16, .uint16, .uint16z: return 2
        case .sint32, .uint32, .uint32z, .float32: return 4
        case .float64, .sint64, .uint64, .uint64z: return 8
        }
    }

    @inlinable public var isSigned: Bool {
        switch self {
        case .sint8, .sint16, .sint32, .sint64: return true
        default: return false
        }
    }

    @inlinable public var isFloat: Bool { self == .float32 || self == .float64 }

    /// The raw bit pattern (zero-extended to 64 bits) that means "no value": all ones for
    /// unsigned types and floats, the largest positive value for signed ones, zero for the "z"
    /// types and strings.
    @inlinable public var invalidPattern: UInt64 {
        switch self {
        case .enumeration, .uint8, .byte: return 0xFF
        case .sint8: return 0x7F
        case .sint16: return 0x7FFF
        case .uint16: return 0xFFFF
        case .sint32: return 0x7FFF_FFFF
        case .uint32, .float32: return 0xFFFF_FFFF
        case .sint64: return 0x7FFF_FFFF_FFFF_FFFF
        case .uint64, .float64: return 0xFFFF_FFFF_FFFF_FFFF
        case .uint8z, .uint16z, .uint32z, .uint64z, .string: return 0
        }
    }
}
