import Crypto

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

    /// Parses 32 hexadecimal digits.
    public init?(hex: String) {
        // `UInt64(_:radix:)` accepts a sign; an id is hexadecimal digits only.
        guard hex.utf8.count == 32, hex.utf8.allSatisfy({ $0.isHexDigit }),
            let high = UInt64(hex.prefix(16), radix: 16),
            let low = UInt64(hex.suffix(16), radix: 16)
        else { return nil }
        self.init(high: high, low: low)
    }

    /// The 16 bytes, big-endian, as stored in SQLite.
    public var bytes: [UInt8] {
        (0..<16).map { index in
            let word = index < 8 ? high : low
            return UInt8(truncatingIfNeeded: word >> (UInt64(7 - index % 8) * 8))
        }
    }

    /// 32 lowercase hexadecimal digits.
    public var description: String {
        func hex(_ word: UInt64) -> String {
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }

    public static func < (lhs: ContentID, rhs: ContentID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}

extension UInt8 {
    var isHexDigit: Bool {
        (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
            || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
