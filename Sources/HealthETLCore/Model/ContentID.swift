/// A sample's identity: the first 128 bits of SHA-256 over the fields that survive re-export.
///
/// The fields are metric, source name, start and end as UTC milliseconds, and value and unit
/// as written — never date strings (their offset changes between exports) and never the
/// device string (it embeds a memory address). Equal content gives an equal id on every
/// machine, so re-imports and re-sends de-duplicate by id alone.
public struct ContentID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Hashes the identity fields, separated by the ASCII unit separator.
    public init(
        metric: String, source: String, start: Instant, end: Instant, value: String?,
        unit: String?
    ) {
        var fields = IdentityFields()
        fields.append("v1")
        fields.append(metric)
        fields.append(source)
        fields.append(start.millisecondsSinceEpoch)
        fields.append(end.millisecondsSinceEpoch)
        fields.append(value ?? "")
        fields.append(unit ?? "")
        self = fields.digest()
    }

    /// The first 16 bytes of a digest or a stored blob, big-endian.
    public init(digest bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { ContentID(digest: $0) }
    }

    /// The first 16 bytes of a digest, big-endian.
    public init(digest bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= 16, "a content id needs 16 bytes")
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[index])
            low = low << 8 | UInt64(bytes[index + 8])
        }
        self.init(high: high, low: low)
    }

    /// Parses 32 hexadecimal digits (either case; no sign, no prefix).
    public init?(hex: String) {
        guard hex.utf8.count == 32 else { return nil }
        // The collector parses an id per sample: read the bytes in place where the string has them.
        let parsed =
            hex.utf8.withContiguousStorageIfAvailable(Self.parse) ?? Array(hex.utf8).withUnsafeBufferPointer(Self.parse)
        guard let parsed else { return nil }
        self = parsed
    }

    /// 32 hexadecimal digits (the caller checked the count) as an id.
    private static func parse(_ digits: UnsafeBufferPointer<UInt8>) -> ContentID? {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var invalid = false
        for index in 0..<16 {
            let upper = nibble(digits[index])
            let lower = nibble(digits[index + 16])
            invalid = invalid || upper > 15 || lower > 15
            high = high << 4 | UInt64(upper & 15)
            low = low << 4 | UInt64(lower & 15)
        }
        return invalid ? nil : ContentID(high: high, low: low)
    }

    /// A hexadecimal digit's value (either case), or 0xFF for any other byte.
    @inline(__always)
    private static func nibble(_ byte: UInt8) -> UInt8 {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = (byte | 0x20) &- UInt8(ascii: "a")
        return letter < 6 ? letter &+ 10 : 0xFF
    }

    /// The 16 bytes, big-endian, as stored in SQLite.
    public var bytes: [UInt8] {
        (0..<16).map { index in
            let word = index < 8 ? high : low
            return UInt8(truncatingIfNeeded: word >> (UInt64(7 - index % 8) * 8))
        }
    }

    /// 32 lowercase hexadecimal digits, written into one buffer (every uploaded sample's id).
    public var description: String {
        String(unsafeUninitializedCapacity: 32) { text in
            HexDigits.write(high, digits: 16, into: text, at: 0)
            HexDigits.write(low, digits: 16, into: text, at: 16)
            return 32
        }
    }

    /// Appends `description`'s 32 digits without building the `String`.
    public func appendHex(to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { text in
            HexDigits.write(high, digits: 16, into: text, at: 0)
            HexDigits.write(low, digits: 16, into: text, at: 16)
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    public static func < (lhs: ContentID, rhs: ContentID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}
