/// Calendar arithmetic on plain integers: days since 1970-01-01 and seconds since the epoch.
/// No DateFormatter, no Calendar: the generator formats tens of millions of dates.
enum CivilTime {
    /// Every date in the export carries the phone's offset at export time (a winter export).
    static let exportOffsetSeconds: Int64 = -8 * 3600

    @inline(__always)
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 9) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day number.
    static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra =
            (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 = Sunday … 6 = Saturday.
    @inline(__always)
    static func weekday(days: Int) -> Int { ((days % 7) + 11) % 7 }

    /// US daylight time (since 2007): second Sunday of March to first Sunday of November.
    static func daylightBounds(year: Int) -> (start: Int, end: Int) {
        let march1 = days(year: year, month: 3, day: 1)
        let start = march1 + (7 - weekday(days: march1)) % 7 + 7
        let november1 = days(year: year, month: 11, day: 1)
        let end = november1 + (7 - weekday(days: november1)) % 7
        return (start, end)
    }

    /// Whether Pacific daylight time applies at a standard-time wall clock (day, 0..<86400).
    static func isDaylight(day: Int, standardSecond second: Int) -> Bool {
        let bounds = daylightBounds(year: date(days: day).year)
        if day > bounds.start && day < bounds.end { return true }
        if day == bounds.start { return second >= 2 * 3600 }
        if day == bounds.end { return second < 3600 }
        return false
    }

    /// The instant of a Pacific wall-clock time (America/Los_Angeles, where the user lives).
    /// `second` may lie outside 0..<86400 (23:30 the evening before is -1800).
    static func instant(day: Int, second: Int) -> Int64 {
        let carry = Int(floorDiv(Int64(second), 86400))
        let d = day + carry
        let s = second - carry * 86400
        let offset: Int64 = isDaylight(day: d, standardSecond: s) ? -7 * 3600 : -8 * 3600
        return Int64(d) * 86400 + Int64(s) - offset
    }

    /// The Pacific wall clock (daylight-saving aware) of an instant.
    static func localWallClock(_ instant: Int64) -> (day: Int, second: Int) {
        let standard = instant - 8 * 3600
        var day = Int(floorDiv(standard, 86400))
        var second = Int(standard - Int64(day) * 86400)
        if isDaylight(day: day, standardSecond: second) {
            second += 3600
            if second >= 86400 {
                second -= 86400
                day += 1
            }
        }
        return (day, second)
    }

    /// Parses `YYYY-MM-DD`.
    static func parseDay(_ text: String) -> Int? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        return days(year: y, month: m, day: d)
    }
}
