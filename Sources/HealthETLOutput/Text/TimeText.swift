import HealthETLCore

/// Timestamps written straight into bytes: ISO 8601 with an offset (`2024-03-01T07:30:00+01:00`),
/// and the plain local form spreadsheets read (`2024-03-01 07:30:00`).
///
/// A value with a one-day memory: samples come in time order, so most fall on the day before
/// them and the calendar arithmetic is done once per day, not once per timestamp.
public struct TimeText {
    private var cachedDay = Int64.min
    private var cachedDate: [UInt8] = []

    public init() {}

    /// ISO 8601 at `offset` seconds from UTC (`Z` for none or zero). Milliseconds appear only when
    /// the instant has them.
    public mutating func appendISO8601(_ instant: Instant, offset: Int32?, to bytes: inout [UInt8]) {
        let offset = Int64(offset ?? 0)
        appendCivil(instant.millisecondsSinceEpoch + offset * 1000, separator: UInt8(ascii: "T"), to: &bytes)
        Self.appendOffset(offset, to: &bytes)
    }

    /// The wall-clock time at `offset` without a zone, `YYYY-MM-DD HH:MM:SS[.mmm]`.
    public mutating func appendLocal(_ instant: Instant, offset: Int32?, to bytes: inout [UInt8]) {
        appendCivil(
            instant.millisecondsSinceEpoch + Int64(offset ?? 0) * 1000, separator: UInt8(ascii: " "), to: &bytes)
    }

    /// `+01:00`, `-05:30`, or `Z` for zero.
    public static func appendOffset(_ seconds: Int64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { text in
            let count = ISO8601Digits.writeOffset(seconds: seconds, into: text, at: 0)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
    }

    /// A calendar day, `YYYY-MM-DD`.
    public static func appendDay(_ day: CivilDate, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { text in
            ISO8601Digits.writeDay(day, into: text, at: 0)
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    private mutating func appendCivil(_ milliseconds: Int64, separator: UInt8, to bytes: inout [UInt8]) {
        let (days, msOfDay) = milliseconds.floorDivided(by: 86_400_000)
        if days != cachedDay {
            cachedDate.removeAll(keepingCapacity: true)
            Self.appendDay(CivilDate(daysSinceEpoch: days), to: &cachedDate)
            cachedDay = days
        }
        bytes.append(contentsOf: cachedDate)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 13) { text in
            text[0] = separator
            let count =
                1
                + ISO8601Digits.writeTime(
                    millisecondsOfDay: msOfDay, milliseconds: msOfDay % 1000 != 0, into: text, at: 1)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
    }
}
