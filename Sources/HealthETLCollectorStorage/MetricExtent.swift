import HealthETLCore
import HealthETLWire

/// The local days a metric's samples may touch, in any zone on Earth.
package enum MetricExtent {
    package static func make(metric: String, firstStart: Int64, lastStart: Int64, longest: Int64) -> WireMetricExtent {
        let days = DirtyDay.days(
            touching: Instant(millisecondsSinceEpoch: firstStart),
            Instant(millisecondsSinceEpoch: firstStart))
        let lastDays = DirtyDay.days(
            touching: Instant(millisecondsSinceEpoch: lastStart),
            Instant(millisecondsSinceEpoch: lastStart + longest))
        // A sleep night is keyed by the morning after.
        return WireMetricExtent(
            metric: metric, first: CivilDate(daysSinceEpoch: days.lowerBound).description,
            last: CivilDate(daysSinceEpoch: lastDays.upperBound + 1).description)
    }
}
