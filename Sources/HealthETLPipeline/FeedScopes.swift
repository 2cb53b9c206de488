import HealthETLCore

/// The projection scopes a client pulls: each kind of projection cut at calendar years, so a
/// scope's ETag stays the same until a change touches that year, and an unchanged year costs one 304.
public enum FeedScopes {
    /// The year-aligned scopes that cover `keys` (`.everything` is not a scope: it asks for a rebuild).
    public static func covering(_ keys: [ChangeKey]) -> [ChangeKey] {
        var scopes: [ChangeKey] = []
        var seen = Set<ChangeKey>()
        for key in keys {
            let pieces: [ChangeKey]
            switch key {
            case .daily(let metric, let days): pieces = years(days).map { .daily(metric: metric, days: $0) }
            case .sleep(let nights): pieces = years(nights).map { .sleep(nights: $0) }
            case .insights(let days): pieces = years(days).map { .insights(days: $0) }
            case .everything: pieces = []
            }
            for piece in pieces where seen.insert(piece).inserted { scopes.append(piece) }
        }
        return scopes
    }

    /// Every scope a rebuild pulls for the sink's extent: each metric's daily rollups, the sleep
    /// nights and the insight days, over the years they have data in.
    public static func rebuilding(_ extent: ProjectionExtent) -> [ChangeKey] {
        var keys: [ChangeKey] = []
        var insightDays: ClosedRange<CivilDate>?
        for metric in extent.days.keys.sorted() {
            guard let days = extent.days[metric] else { continue }
            keys.append(.daily(metric: metric, days: days))
            if metric == SleepNightCalculator.metric { keys.append(.sleep(nights: days)) }
            if InsightRule.metrics.contains(metric) {
                insightDays =
                    insightDays.map { min($0.lowerBound, days.lowerBound)...max($0.upperBound, days.upperBound) }
                    ?? days
            }
        }
        if let insightDays { keys.append(.insights(days: insightDays)) }
        return covering(keys)
    }

    /// The calendar years `days` reaches into, each as its first...last day.
    static func years(_ days: ClosedRange<CivilDate>) -> [ClosedRange<CivilDate>] {
        (days.lowerBound.year...days.upperBound.year).compactMap { year in
            guard let first = CivilDate(year: year, month: 1, day: 1),
                let last = CivilDate(year: year, month: 12, day: 31)
            else { return nil }
            return first...last
        }
    }
}
