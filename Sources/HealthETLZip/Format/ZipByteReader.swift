/// Reads little-endian integers and byte runs from a buffer, with every read bounds-checked.
///
/// Each read returns nil once the buffer is exhausted, so a hostile length field can never read
/// past the bytes actually present.
struct ZipByteReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    var remaining: Int { bytes.endIndex - position }

    mutating func uint16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    mutating func uint32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[position + index]) << (8 * index) }
        position += 4
        return value
    }

    mutating func uint64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[position + index]) << (8 * index) }
        position += 8
        return value
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, remaining >= count else { return nil }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        position += count
        return true
    }
}
