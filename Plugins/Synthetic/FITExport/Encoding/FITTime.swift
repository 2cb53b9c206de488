/// FIT's clock: seconds since 1989-12-31T00:00:00Z, and the text forms the summary uses. Plain
/// integer arithmetic (`CivilTime`), no Foundation formatters: files hold thousands of times.
enum FITTime {
    /// 1989-12-31T00:00:00Z in Unix seconds.
    static let epoch: Int64 = 631_065_600

    static func fitSeconds(_ unixSeconds: Int64) -> Int64 { unixSeconds - epoch }

    /// `YYYY-MM-DD` of a day number (days since 1970-01-01).
    static func dayText(_ day: Int) -> String {
        let date = CivilTime.date(days: day)
        return "\(date.year)-\(two(date.month))-\(two(date.day))"
    }

    /// ISO 8601 UTC to the second, as the oracle prints it.
    static func isoText(_ unixSeconds: Int64) -> String {
        let day = Int(CivilTime.floorDiv(unixSeconds, 86_400))
        let second = Int(unixSeconds - Int64(day) * 86_400)
        return dayText(day) + "T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }

    /// `YYYY-MM-DD-HH-MM-SS` of a local wall-clock time, as Garmin names activity files.
    static func fileStamp(_ localSeconds: Int64) -> String {
        let day = Int(CivilTime.floorDiv(localSeconds, 86_400))
        let second = Int(localSeconds - Int64(day) * 86_400)
        return dayText(day) + "-\(two(second / 3600))-\(two(second / 60 % 60))-\(two(second % 60))"
    }

    private static func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
}
