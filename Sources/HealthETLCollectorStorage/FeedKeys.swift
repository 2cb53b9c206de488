import HealthETLCore

/// The change feed's keys for a set of dirty days: each metric's runs of days, the sleep nights
/// those days can change, and the insight days that read them.
package enum FeedKeys {
    package static func keys(of dirty: some Collection<DirtyDay>, metricName: (Int64) -> String?) -> [ChangeKey] {
        var daysByMetric: [String: [Int64]] = [:]
        for key in dirty {
            guard let name = metricName(key.metric) else { continue }
            daysByMetric[name, default: []].append(key.day)
        }
        var keys: [ChangeKey] = []
        var insightDays: [Int64] = []
        let insightMetrics = Set(InsightRule.metrics)
        for name in daysByMetric.keys.sorted() {
            for run in ProjectionPlan.runs(of: (daysByMetric[name] ?? []).sorted()) {
                keys.append(.daily(metric: name, days: dates(run)))
                if name == ProjectionPlan.sleepMetric {
                    keys.append(.sleep(nights: dates(ProjectionPlan.nights(of: run))))
                }
                if insightMetrics.contains(name) {
                    // Night N reads day N − 1's evening; an insight day reads the 56 days before it.
                    let first = run.lowerBound
                    let last = run.upperBound + 1 + InsightCalculator.dependencyDays
                    insightDays += Array(first...last)
                }
            }
        }
        for run in ProjectionPlan.runs(of: Array(Set(insightDays)).sorted()) {
            keys.append(.insights(days: dates(run)))
        }
        return keys
    }

    /// The days a scope's projections read, for its version: a metric's own days; a night's day
    /// and the evening before it; an insight day's dependency days of every insight metric.
    package static func versionScope(of key: ChangeKey) -> (metrics: [String], days: ClosedRange<Int64>)? {
        switch key {
        case .daily(let metric, let days):
            return ([metric], days.lowerBound.daysSinceEpoch...days.upperBound.daysSinceEpoch)
        case .sleep(let nights):
            return (
                [ProjectionPlan.sleepMetric], (nights.lowerBound.daysSinceEpoch - 1)...nights.upperBound.daysSinceEpoch
            )
        case .insights(let days):
            return (
                InsightRule.metrics,
                (days.lowerBound.daysSinceEpoch - InsightCalculator.dependencyDays - 1)...days.upperBound.daysSinceEpoch
            )
        case .everything:
            return nil
        }
    }

    private static func dates(_ days: ClosedRange<Int64>) -> ClosedRange<CivilDate> {
        CivilDate(daysSinceEpoch: days.lowerBound)...CivilDate(daysSinceEpoch: days.upperBound)
    }
}
