/// A 64-bit FNV-1a hash, fed byte by byte: a short, stable digest for names that only need to
/// tell inputs apart (an undated export's stream name, an ETag's scope), never for security.
public struct FNV1a: Sendable {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public var value: UInt64 { state }

    @inlinable
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }

    /// The hash as 16 lowercase hexadecimal digits.
    public var hex: String { HexDigits.text(state, digits: 16) }
}
