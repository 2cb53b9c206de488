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
        guard seconds != 0 else { return bytes.append(UInt8(ascii: "Z")) }
        let minutes = abs(seconds) / 60
        let hours = minutes / 60 % 100
        let rest = minutes % 60
        let zero = UInt8(ascii: "0")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { text in
            text[0] = seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            text[1] = zero + UInt8(hours / 10)
            text[2] = zero + UInt8(hours % 10)
            text[3] = UInt8(ascii: ":")
            text[4] = zero + UInt8(rest / 10)
            text[5] = zero + UInt8(rest % 10)
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// A calendar day, `YYYY-MM-DD`.
    public static func appendDay(_ day: CivilDate, to bytes: inout [UInt8]) {
        // Four digits for years 0…9999, which is every date a health record can carry.
        let year = min(max(day.year, 0), 9999)
        let zero = UInt8(ascii: "0")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { text in
            text[0] = zero + UInt8(year / 1000)
            text[1] = zero + UInt8(year / 100 % 10)
            text[2] = zero + UInt8(year / 10 % 10)
            text[3] = zero + UInt8(year % 10)
            text[4] = UInt8(ascii: "-")
            text[5] = zero + UInt8(day.month / 10)
            text[6] = zero + UInt8(day.month % 10)
            text[7] = UInt8(ascii: "-")
            text[8] = zero + UInt8(day.day / 10)
            text[9] = zero + UInt8(day.day % 10)
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
        let seconds = msOfDay / 1000
        let fraction = msOfDay % 1000
        let zero = UInt8(ascii: "0")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 13) { text in
            text[0] = separator
            let (hour, minute, second) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
            text[1] = zero + UInt8(hour / 10)
            text[2] = zero + UInt8(hour % 10)
            text[3] = UInt8(ascii: ":")
            text[4] = zero + UInt8(minute / 10)
            text[5] = zero + UInt8(minute % 10)
            text[6] = UInt8(ascii: ":")
            text[7] = zero + UInt8(second / 10)
            text[8] = zero + UInt8(second % 10)
            var count = 9
            if fraction != 0 {
                text[9] = UInt8(ascii: ".")
                text[10] = zero + UInt8(fraction / 100)
                text[11] = zero + UInt8(fraction / 10 % 10)
                text[12] = zero + UInt8(fraction % 10)
                count = 13
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
    }
}
