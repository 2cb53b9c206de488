import HealthETLCore

/// A projection key whose rollup must be recomputed: a metric on a local day.
struct DirtyKey: Hashable {
    let metric: String
    let day: CivilDate

    /// The longest span one sample may mark, so a corrupt year-long sample cannot flood the table.
    static let maximumDays: Int64 = 400

    static func keys(for sample: Sample) -> [DirtyKey] {
        keys(metric: sample.metric, start: sample.start, end: sample.end, utcOffsetSeconds: sample.utcOffsetSeconds)
    }

    /// Every local day the interval touches, using the recorded offset (UTC when there is none).
    static func keys(metric: String, start: Instant, end: Instant, utcOffsetSeconds: Int32?) -> [DirtyKey] {
        let offset = Int64(utcOffsetSeconds ?? 0) * 1000
        let first = (start.millisecondsSinceEpoch + offset).floorDivided(by: 86_400_000).quotient
        // An interval ending exactly at midnight does not touch the next day.
        let lastInstant = max(start.millisecondsSinceEpoch, end.millisecondsSinceEpoch - 1)
        let last = min((lastInstant + offset).floorDivided(by: 86_400_000).quotient, first + maximumDays - 1)
        return (first...last).map { DirtyKey(metric: metric, day: CivilDate(daysSinceEpoch: $0)) }
    }
}
