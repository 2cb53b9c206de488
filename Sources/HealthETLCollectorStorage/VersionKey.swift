import HealthETLCore

/// What a projection's ETag is versioned by: a metric's calendar month. A change stamps the months
/// of the days it changed — a month, not each day, so a batch writes a few stamps however many days
/// it touches; an ETag over part of a month changes a little more often than it must, never less.
package struct VersionKey: Hashable {
    package let metric: Int64
    /// Months since January 1970.
    package let month: Int64

    package init(metric: Int64, month: Int64) {
        self.metric = metric
        self.month = month
    }

    package static func month(ofDay day: Int64) -> Int64 {
        let date = CivilDate(daysSinceEpoch: day)
        return Int64(date.year - 1970) * 12 + Int64(date.month - 1)
    }

    package static func months(of days: ClosedRange<Int64>) -> ClosedRange<Int64> {
        month(ofDay: days.lowerBound)...month(ofDay: days.upperBound)
    }

    package static func keys(of dirty: Set<DirtyDay>) -> Set<VersionKey> {
        Set(dirty.map { VersionKey(metric: $0.metric, month: month(ofDay: $0.day)) })
    }
}
