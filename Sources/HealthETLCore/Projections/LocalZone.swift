import Foundation

/// The time zone a sample's local day is read in: a fixed offset or an IANA zone.
///
/// An IANA zone gives the offset in force at each instant, so a sample on either side of a clock
/// change lands on the right local day; a fixed offset is all some sources record.
public enum LocalZone: Hashable, Sendable {
    case fixed(utcOffsetSeconds: Int32)
    case named(TimeZone)

    public static let utc = LocalZone.fixed(utcOffsetSeconds: 0)

    static let millisecondsPerDay: Int64 = 86_400_000
    /// UTC offsets in use lie within ±14 h: widening a UTC window by this covers every zone.
    public static let widestOffsetMilliseconds: Int64 = 14 * 3_600_000

    /// The offset from UTC in force at `instant`.
    public func utcOffsetSeconds(at instant: Instant) -> Int64 {
        switch self {
        case .fixed(let offset):
            return Int64(offset)
        case .named(let zone):
            let seconds = Double(instant.millisecondsSinceEpoch) / 1000
            return Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        }
    }

    /// The wall-clock reading at `instant`, as milliseconds since local 1970-01-01T00:00.
    public func wallClockMilliseconds(at instant: Instant) -> Int64 {
        instant.millisecondsSinceEpoch + utcOffsetSeconds(at: instant) * 1000
    }

    /// The local date at `instant`.
    public func localDay(of instant: Instant) -> CivilDate {
        CivilDate(
            daysSinceEpoch: wallClockMilliseconds(at: instant).floorDivided(by: Self.millisecondsPerDay)
                .quotient)
    }

    /// Milliseconds since the local midnight that starts the day of `instant`.
    public func millisecondsIntoDay(at instant: Instant) -> Int64 {
        wallClockMilliseconds(at: instant).floorDivided(by: Self.millisecondsPerDay).remainder
    }

    /// The first instant after `instant` that lies on a later local date: where the day ends.
    ///
    /// Usually the next local midnight at the offset in force at `instant`; a clock change before
    /// that midnight (or one that skips it) is found by bisection, which only assumes the local date
    /// never goes backwards.
    public func endOfDay(containing instant: Instant) -> Instant {
        let day = localDay(of: instant)
        let nextMidnight = (day.daysSinceEpoch + 1) * Self.millisecondsPerDay
        let guess = Instant(millisecondsSinceEpoch: nextMidnight - utcOffsetSeconds(at: instant) * 1000)
        if guess > instant, isFirstInstant(guess, after: day) { return guess }
        return bisectEndOfDay(day, after: instant)
    }

    private func isFirstInstant(_ candidate: Instant, after day: CivilDate) -> Bool {
        let previous = Instant(millisecondsSinceEpoch: candidate.millisecondsSinceEpoch - 1)
        return localDay(of: candidate) > day && localDay(of: previous) == day
    }

    private func bisectEndOfDay(_ day: CivilDate, after instant: Instant) -> Instant {
        // No offset exceeds a day, so two days from `instant` is always on a later date.
        var onDay = instant.millisecondsSinceEpoch
        var afterDay = onDay + 2 * Self.millisecondsPerDay
        while afterDay - onDay > 1 {
            let middle = onDay + (afterDay - onDay) / 2
            if localDay(of: Instant(millisecondsSinceEpoch: middle)) > day {
                afterDay = middle
            } else {
                onDay = middle
            }
        }
        return Instant(millisecondsSinceEpoch: afterDay)
    }
}
