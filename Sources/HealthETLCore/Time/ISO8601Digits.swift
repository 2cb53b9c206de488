/// The fixed-width pieces of ISO 8601 text written into a buffer: the one writer behind
/// `Instant.iso8601` and the exports' timestamps, which format two instants a sample (joining
/// a dozen small strings cost more than the rest of a sample's JSON).
public enum ISO8601Digits {
    /// `YYYY-MM-DD` (10 bytes) at `start`; the year is held to 0…9999, every year a health
    /// record can carry.
    public static func writeDay(_ day: CivilDate, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        write(Int64(min(max(day.year, 0), 9999)), digits: 4, into: text, at: start)
        text[start + 4] = UInt8(ascii: "-")
        write(Int64(day.month), digits: 2, into: text, at: start + 5)
        text[start + 7] = UInt8(ascii: "-")
        write(Int64(day.day), digits: 2, into: text, at: start + 8)
    }

    /// `HH:MM:SS` of a time of day, with `.mmm` when `milliseconds` is true.
    /// - Returns: the bytes written, 8 or 12.
    public static func writeTime(
        millisecondsOfDay: Int64, milliseconds: Bool, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int
    ) -> Int {
        let seconds = millisecondsOfDay / 1000
        write(seconds / 3600, digits: 2, into: text, at: start)
        text[start + 2] = UInt8(ascii: ":")
        write(seconds / 60 % 60, digits: 2, into: text, at: start + 3)
        text[start + 5] = UInt8(ascii: ":")
        write(seconds % 60, digits: 2, into: text, at: start + 6)
        guard milliseconds else { return 8 }
        text[start + 8] = UInt8(ascii: ".")
        write(millisecondsOfDay % 1000, digits: 3, into: text, at: start + 9)
        return 12
    }

    /// `+HH:MM` or `-HH:MM` for an offset from UTC, `Z` for none.
    /// - Returns: the bytes written, 6 or 1.
    public static func writeOffset(seconds: Int64, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        guard seconds != 0 else {
            text[start] = UInt8(ascii: "Z")
            return 1
        }
        let minutes = abs(seconds) / 60
        text[start] = seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        write(minutes / 60, digits: 2, into: text, at: start + 1)
        text[start + 3] = UInt8(ascii: ":")
        write(minutes % 60, digits: 2, into: text, at: start + 4)
        return 6
    }

    /// The low `digits` decimal digits of a non-negative `value`.
    private static func write(_ value: Int64, digits: Int, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int)
    {
        var rest = value
        for index in stride(from: start + digits - 1, through: start, by: -1) {
            text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}
