import HealthETLCore

/// Appending text to a byte buffer without building strings: the exports write every field of
/// millions of samples, and a `String` (or a Foundation formatter) per field would dominate.
public enum ByteText {
    @inlinable
    public static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inlinable
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A decimal integer.
    public static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            // The magnitude of .min does not fit; it has no place in a health value anyway.
            appendDigits(value == .min ? UInt64(Int64.max) + 1 : UInt64(-value), to: &bytes)
        } else {
            appendDigits(UInt64(value), to: &bytes)
        }
    }

    private static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
        // At most 20 digits, written backwards into a stack buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var position = 20
            var rest = value
            repeat {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[position...]))
        }
    }

    /// A finite number as the shortest text that reads back to it (`72`, `0.1`, `1e-05`), valid in
    /// JSON, CSV and FHIR's decimal: whole numbers lose the `.0` Swift would write.
    public static func append(_ value: Double, to bytes: inout [UInt8]) {
        if value.rounded() == value, abs(value) < 1e15 {
            append(Int64(value), to: &bytes)
        } else if value.isFinite {
            bytes.append(contentsOf: value.description.utf8)
        } else {
            bytes.append(UInt8(ascii: "0"))
        }
    }

    /// Two digits, zero-padded (0…99).
    @inlinable
    public static func appendTwoDigits(_ value: Int64, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
