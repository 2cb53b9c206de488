import HealthETLCore

/// A content id as 32 lowercase hex digits, or as a UUID (8-4-4-4-12) for FHIR's `urn:uuid:`.
public enum HexText {
    public static func append(_ id: ContentID, to bytes: inout [UInt8]) {
        appendHex(id.high, digits: 16, to: &bytes)
        appendHex(id.low, digits: 16, to: &bytes)
    }

    public static func appendUUID(_ id: ContentID, to bytes: inout [UInt8]) {
        appendHex(id.high >> 32, digits: 8, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendHex(id.high >> 16, digits: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendHex(id.high, digits: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendHex(id.low >> 48, digits: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendHex(id.low, digits: 12, to: &bytes)
    }

    /// The low `digits` hex digits of `value`.
    private static func appendHex(_ value: UInt64, digits: Int, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { text in
            HexDigits.write(value, digits: digits, into: text, at: 0)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<digits]))
        }
    }
}
