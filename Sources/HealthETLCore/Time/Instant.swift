/// A point in time as whole milliseconds since 1970-01-01T00:00:00Z.
///
/// Stored as an integer so identity hashes, comparisons and SQLite columns are exact;
/// the sources we read carry at most millisecond precision.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    public init(secondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = secondsSinceEpoch * 1000
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    public func adding(seconds: Int64) -> Instant {
        Instant(millisecondsSinceEpoch: millisecondsSinceEpoch + seconds * 1000)
    }

    /// The UTC calendar day this instant falls on.
    public var utcDay: CivilDate {
        CivilDate(daysSinceEpoch: millisecondsSinceEpoch.floorDivided(by: 86_400_000).quotient)
    }

    /// Midnight UTC of the day this instant falls on.
    public var startOfUTCDay: Instant {
        Instant(millisecondsSinceEpoch: millisecondsSinceEpoch.floorDivided(by: 86_400_000).quotient * 86_400_000)
    }

    /// This instant without its milliseconds.
    public var truncatedToSecond: Instant {
        Instant(millisecondsSinceEpoch: millisecondsSinceEpoch.floorDivided(by: 1000).quotient * 1000)
    }

    /// Seconds from `self` to `later`, as a floating-point duration.
    public func seconds(until later: Instant) -> Double {
        Double(later.millisecondsSinceEpoch - millisecondsSinceEpoch) / 1000
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2024-03-01T06:30:00.000Z`.
    public var description: String { iso8601(utcOffsetSeconds: 0) }

    /// ISO 8601 at the given offset, e.g. `2024-03-01T07:30:00.000+01:00`.
    public func iso8601(utcOffsetSeconds offset: Int32) -> String {
        let local = millisecondsSinceEpoch + Int64(offset) * 1000
        let (days, msOfDay) = local.floorDivided(by: 86_400_000)
        let date = CivilDate(daysSinceEpoch: days)
        guard (0...9999).contains(date.year) else { return Self.joinedISO8601(date, msOfDay, offset) }
        return String(unsafeUninitializedCapacity: 29) { text in
            ISO8601Digits.writeDay(date, into: text, at: 0)
            text[10] = UInt8(ascii: "T")
            let end = 11 + ISO8601Digits.writeTime(millisecondsOfDay: msOfDay, milliseconds: true, into: text, at: 11)
            return end + ISO8601Digits.writeOffset(seconds: Int64(offset), into: text, at: end)
        }
    }

    /// The same text for a year outside 0...9999, piece by piece.
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
    /// Floor division with a non-negative remainder, for dates before 1970.
    public func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = (self >= 0 ? self : self - divisor + 1) / divisor
        return (quotient, self - quotient * divisor)
    }
}
