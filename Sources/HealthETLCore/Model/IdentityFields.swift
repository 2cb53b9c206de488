import CLibCrypto

/// The bytes a content id hashes: each field followed by the ASCII unit separator (0x1F),
/// numbers as decimal digits. Kept in a fixed buffer, so hashing a record allocates nothing
/// unless its fields are unusually long.
struct IdentityFields {
    private static let capacity = 256
    private var inline:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        ) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    /// Used instead of `inline` once the fields outgrow it.
    private var overflow: [UInt8]?

    mutating func append(_ text: String) {
        // Read in place: a copy to call `withUTF8` on would be retained and released.
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { append(bytes: $0) }
        if appended == nil {
            var copy = text
            copy.withUTF8 { append(bytes: $0) }
        }
        append(byte: 0x1F)
    }

    mutating func append(_ number: Int64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let length = withUnsafeMutableBytes(of: &digits) { buffer -> Int in
            var magnitude = number.magnitude
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            let length = buffer.count - index
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[index...]))
            return length
        }
        withUnsafeBytes(of: &digits) {
            append(bytes: UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[0..<length]))
        }
        append(byte: 0x1F)
    }

    /// Mutating only to hash the buffer where it is, not a copy of all of it.
    mutating func digest() -> ContentID {
        var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digest) { digest in
            let out = digest.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if let overflow {
                overflow.withUnsafeBytes { healthetl_sha256($0.baseAddress, $0.count, out) }
            } else {
                let count = count
                withUnsafeBytes(of: &inline) { healthetl_sha256($0.baseAddress, count, out) }
            }
        }
        return withUnsafeBytes(of: &digest) { ContentID(digest: $0) }
    }

    private mutating func append(byte: UInt8) {
        withUnsafeBytes(of: byte) { append(bytes: $0.bindMemory(to: UInt8.self)) }
    }

    private mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        if overflow != nil || count + bytes.count > Self.capacity {
            if overflow == nil {
                var copy = inline
                overflow = withUnsafeBytes(of: &copy) { Array($0[0..<count]) }
            }
            overflow!.append(contentsOf: bytes)
            return
        }
        let start = count
        withUnsafeMutableBytes(of: &inline) { buffer in
            UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + bytes.count)])
                .copyMemory(from: UnsafeRawBufferPointer(bytes))
        }
        count += bytes.count
    }
}
