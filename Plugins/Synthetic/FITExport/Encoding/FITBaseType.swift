/// The FIT protocol's base types: the number a field definition carries, each value's size, and
/// the bit pattern that means "no value" (a decoder reports it as absent).
enum FITBaseType: UInt8, Sendable {
    case enumeration = 0x00
    case sint8 = 0x01
    case uint8 = 0x02
    case sint16 = 0x83
    case uint16 = 0x84
    case sint32 = 0x85
    case uint32 = 0x86
    case string = 0x07
    case uint8z = 0x0A
    case uint16z = 0x8B
    case uint32z = 0x8C
    case byte = 0x0D

    /// Bytes of one value (a string counts its bytes, so 1).
    var size: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .string, .uint8z, .byte: 1
        case .sint16, .uint16, .uint16z: 2
        case .sint32, .uint32, .uint32z: 4
        }
    }

    /// The invalid value's bit pattern: all ones for unsigned types, the largest positive value
    /// for signed ones, zero for the "z" types and strings.
    var invalidBits: UInt64 {
        switch self {
        case .enumeration, .uint8, .byte: 0xFF
        case .sint8: 0x7F
        case .uint16: 0xFFFF
        case .sint16: 0x7FFF
        case .uint32: 0xFFFF_FFFF
        case .sint32: 0x7FFF_FFFF
        case .string, .uint8z, .uint16z, .uint32z: 0
        }
    }
}
