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
            for position in 0..<digits {
                let nibble = UInt8((value >> UInt64((digits - 1 - position) * 4)) & 0xF)
                text[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<digits]))
        }
    }
}
