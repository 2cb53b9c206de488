import HealthETLCore

/// A projection key to recompute: a metric's local day (days since 1970-01-01).
package struct DirtyDay: Hashable {
    package let metric: Int64
    package let day: Int64

    package init(metric: Int64, day: Int64) {
        self.metric = metric
        self.day = day
    }

    /// No sample spans longer (`SampleBounds`); the cap still guards what older stores hold.
    package static let maximumDays = SampleBounds.longestSpanDays

    package static func days(touching start: Instant, _ end: Instant) -> ClosedRange<Int64> {
        let first = (start.millisecondsSinceEpoch - LocalZone.widestOffsetMilliseconds).floorDivided(by: 86_400_000)
            .quotient
        let last = (end.millisecondsSinceEpoch + LocalZone.widestOffsetMilliseconds).floorDivided(by: 86_400_000)
            .quotient
        return first...min(last, first + maximumDays)
    }
}
