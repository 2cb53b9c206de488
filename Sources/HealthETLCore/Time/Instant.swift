/// A point in time as whole milliseconds since 1970-01-01T00:00:00Z.
///
/// Stored as an integer so identity hashes, comparisons and SQLite columns are exact;
/// the sources we read carry at most millisecond precision. Any `Int64` is an instant a source
/// can hand over (a Health Connect row may hold `Int64.max`), so nothing here traps on one:
/// sums and products saturate at the ends of the line, which lie far outside `SampleBounds`,
/// where the normalizer quarantines the record.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    public init(secondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = secondsSinceEpoch.saturatingMultiplied(by: 1000)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    /// `seconds` later (earlier when negative), held at the ends of the line.
    public func adding(seconds: Int64) -> Instant {
        Instant(millisecondsSinceEpoch: millisecondsSinceEpoch.saturatingAdding(seconds.saturatingMultiplied(by: 1000)))
    }

    /// The UTC calendar day this instant falls on.
    public var utcDay: CivilDate {
        CivilDate(daysSinceEpoch: millisecondsSinceEpoch.floorDivided(by: 86_400_000).quotient)
    }

    /// Midnight UTC of the day this instant falls on (`Int64.min` for the first day of the line,
    /// whose midnight lies before it).
    public var startOfUTCDay: Instant {
        Instant(
            millisecondsSinceEpoch: millisecondsSinceEpoch.saturatingSubtracting(
                millisecondsSinceEpoch.floorDivided(by: 86_400_000).remainder))
    }

    /// This instant without its milliseconds (held at `Int64.min` like `startOfUTCDay`).
    public var truncatedToSecond: Instant {
        Instant(
            millisecondsSinceEpoch: millisecondsSinceEpoch.saturatingSubtracting(
                millisecondsSinceEpoch.floorDivided(by: 1000).remainder))
    }

    /// Seconds from `self` to `later`, as a floating-point duration: exact when the difference
    /// fits in 64 bits, else the nearest `Double` (a span across the whole line).
    public func seconds(until later: Instant) -> Double {
        let (difference, overflow) = later.millisecondsSinceEpoch.subtractingReportingOverflow(millisecondsSinceEpoch)
        guard overflow else { return Double(difference) / 1000 }
        return (Double(later.millisecondsSinceEpoch) - Double(millisecondsSinceEpoch)) / 1000
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2024-03-01T06:30:00.000Z`.
    public var description: String { iso8601(utcOffsetSeconds: 0) }

    /// ISO 8601 at the given offset, e.g. `2024-03-01T07:30:00.000+01:00`.
    /// Any instant at any offset: the day is split off before the offset is added, so the local
    /// time cannot overflow.
    public func iso8601(utcOffsetSeconds offset: Int32) -> String {
        let (utcDays, utcMsOfDay) = millisecondsSinceEpoch.floorDivided(by: 86_400_000)
        let (extraDays, msOfDay) = (utcMsOfDay + Int64(offset) * 1000).floorDivided(by: 86_400_000)
        let date = CivilDate(daysSinceEpoch: utcDays + extraDays)
        // The buffer holds a four-digit year and a two-digit hour of offset.
        guard (0...9999).contains(date.year), offset.magnitude < 100 * 3600 else {
            return Self.joinedISO8601(date, msOfDay, offset)
        }
        return String(unsafeUninitializedCapacity: 29) { text in
            ISO8601Digits.writeDay(date, into: text, at: 0)
            text[10] = UInt8(ascii: "T")
            let end = 11 + ISO8601Digits.writeTime(millisecondsOfDay: msOfDay, milliseconds: true, into: text, at: 11)
            return end + ISO8601Digits.writeOffset(seconds: Int64(offset), into: text, at: end)
        }
    }

    /// Appends `description`'s UTF-8 without building the `String`: the uploaders write two
    /// instants a sample, and each string was an allocation.
    public func appendDescription(to bytes: inout [UInt8]) {
        let (days, msOfDay) = millisecondsSinceEpoch.floorDivided(by: 86_400_000)
        let date = CivilDate(daysSinceEpoch: days)
        guard (0...9999).contains(date.year) else {
            bytes.append(contentsOf: description.utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 29) { text in
            ISO8601Digits.writeDay(date, into: text, at: 0)
            text[10] = UInt8(ascii: "T")
            let end = 11 + ISO8601Digits.writeTime(millisecondsOfDay: msOfDay, milliseconds: true, into: text, at: 11)
            let count = end + ISO8601Digits.writeOffset(seconds: 0, into: text, at: end)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[0..<count]))
        }
    }

    /// The same text for a year outside 0...9999 or an offset of 100 hours or more, piece by piece.
    private static func joinedISO8601(_ date: CivilDate, _ msOfDay: Int64, _ offset: Int32) -> String {
        let seconds = msOfDay / 1000
        var text = date.description
        text += "T" + twoDigits(seconds / 3600) + ":" + twoDigits(seconds / 60 % 60) + ":"
        text += twoDigits(seconds % 60) + "." + threeDigits(msOfDay % 1000)
        if offset == 0 { return text + "Z" }
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(Int64(offset)) / 60
        return text + sign + twoDigits(magnitude / 60) + ":" + twoDigits(magnitude % 60)
    }
}

private func twoDigits(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}

private func threeDigits(_ value: Int64) -> String {
    value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
}

extension Int64 {
    /// Floor division with a remainder in `0..<divisor`, for dates before 1970; defined for every
    /// value, `Int64.min` included. The divisor is the caller's constant, never input.
    public func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        precondition(divisor > 0, "floor division by a non-positive divisor")
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        // Truncation rounds a negative quotient up: one less, and the remainder back in range.
        // (No overflow: a divisor of 1 leaves no remainder, a larger one a quotient above `min`.)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The sum, held at `Int64.min`/`Int64.max` instead of overflowing.
    public func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }

    /// The difference, held at `Int64.min`/`Int64.max` instead of overflowing.
    public func saturatingSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// The product, held at `Int64.min`/`Int64.max` instead of overflowing.
    public func saturatingMultiplied(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
