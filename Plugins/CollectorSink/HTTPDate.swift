import HealthETLCore

/// Parses the three date formats HTTP recipients must accept (RFC 9110 §5.6.7), with fixed
/// positions and no `DateFormatter` (which is costly to create and depends on the locale):
///
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
/// - RFC 850:     `Sunday, 06-Nov-94 08:49:37 GMT`
/// - asctime:     `Sun Nov  6 08:49:37 1994`
enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The instant, or nil when the text is none of the three formats.
    /// - Parameter now: decides the century of an RFC 850 two-digit year.
    static func parse(_ text: String, now: Instant) -> Instant? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let weekday = fields.first else { return nil }
        if weekday.hasSuffix(",") {
            if fields.count == 6, fields[5] == "GMT" {
                return instant(
                    day: fields[1], month: fields[2], year: fields[3], time: fields[4], yearDigits: 4,
                    now: now)
            }
            if fields.count == 4, fields[3] == "GMT" {
                let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 3 else { return nil }
                return instant(
                    day: parts[0], month: parts[1], year: parts[2], time: fields[2], yearDigits: 2, now: now)
            }
            return nil
        }
        guard fields.count == 5 else { return nil }
        return instant(
            day: fields[2], month: fields[1], year: fields[4], time: fields[3], yearDigits: 4, now: now)
    }

    private static func instant(
        day: String, month: String, year: String, time: String, yearDigits: Int, now: Instant
    ) -> Instant? {
        guard day.count <= 2, year.count == yearDigits, let dayNumber = number(day),
            let monthIndex = months.firstIndex(of: month),
            var yearNumber = number(year)
        else { return nil }
        if yearDigits == 2 {
            // A two-digit year more than 50 years ahead is the most recent such year in the past.
            let currentYear = now.utcDay.year
            yearNumber += currentYear / 100 * 100
            if yearNumber > currentYear + 50 { yearNumber -= 100 }
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = number(clock[0]),
            let minute = number(clock[1]),
            let second = number(clock[2]), hour < 24, minute < 60, second <= 60,
            let date = CivilDate(year: yearNumber, month: monthIndex + 1, day: dayNumber)
        else { return nil }
        return Instant(secondsSinceEpoch: date.secondsSinceEpoch(hour: hour, minute: minute, second: min(second, 59)))
    }

    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(text)
    }
}
