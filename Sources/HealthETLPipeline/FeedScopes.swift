import HealthETLCore

/// The projection scopes a client pulls: each kind of projection cut at calendar years, so a
/// scope's ETag stays the same until a change touches that year, and an unchanged year costs one 304.
///
/// Only the years a sample can fall on are cut (`possibleDays`): a change key or an extent from a
/// broken or hostile collector can name 0001-01-01…9999-12-31, and would otherwise cost a pull for
/// every one of those 9,999 years.
public enum FeedScopes {
    /// The local days a stored sample can touch: its instants lie in `SampleBounds.instants`
    /// (1900 up to 2200, UTC), shifted by a UTC offset of at most `SampleBounds.widestUTCOffsetSeconds`.
    public static let possibleDays: ClosedRange<CivilDate> = {
        let widest = Int64(SampleBounds.widestUTCOffsetSeconds) * 1_000
        let first = SampleBounds.instants.lowerBound.millisecondsSinceEpoch - widest
        let last = SampleBounds.instants.upperBound.millisecondsSinceEpoch - 1 + widest
        return day(atMillisecond: first)...day(atMillisecond: last)
    }()

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
        for metric in extent.days.keys.sorted() {
            guard let days = extent.days[metric] else { continue }
            keys.append(.daily(metric: metric, days: days))
            if metric == SleepNightCalculator.metric { keys.append(.sleep(nights: days)) }
        }
        if let insightDays = span(of: .insights(days: possibleDays), in: extent) {
            keys.append(.insights(days: insightDays))
        }
        return covering(keys)
    }

    /// The days the sink's extent has data on for `scope`'s kind of projection: a metric's days
    /// for its rollups, the sleep metric's for the nights, the insight metrics' together for the
    /// insight days.
    public static func span(of scope: ChangeKey, in extent: ProjectionExtent) -> ClosedRange<CivilDate>? {
        switch scope {
        case .daily(let metric, _):
            return extent.days[metric]
        case .sleep:
            return extent.days[SleepNightCalculator.metric]
        case .insights:
            return InsightRule.metrics.compactMap { extent.days[$0] }.reduce(nil) { union, days in
                union.map { min($0.lowerBound, days.lowerBound)...max($0.upperBound, days.upperBound) } ?? days
            }
        case .everything:
            return nil
        }
    }

    /// Whether `scope`'s days overlap `span` (read as `rebuilding` reads an extent).
    public static func reaches(_ scope: ChangeKey, _ span: ClosedRange<CivilDate>?) -> Bool {
        guard let span, let days = days(of: scope) else { return false }
        return days.overlaps(span)
    }

    /// The calendar years `days` reaches into within `possibleDays`, each as its first...last day.
    static func years(_ days: ClosedRange<CivilDate>) -> [ClosedRange<CivilDate>] {
        let first = max(days.lowerBound, possibleDays.lowerBound).year
        let last = min(days.upperBound, possibleDays.upperBound).year
        guard first <= last else { return [] }
        return (first...last).compactMap { year in
            guard let first = CivilDate(year: year, month: 1, day: 1),
                let last = CivilDate(year: year, month: 12, day: 31)
            else { return nil }
            return first...last
        }
    }

    private static func days(of scope: ChangeKey) -> ClosedRange<CivilDate>? {
        switch scope {
        case .daily(_, let days), .insights(let days): days
        case .sleep(let nights): nights
        case .everything: nil
        }
    }

    private static func day(atMillisecond milliseconds: Int64) -> CivilDate {
        let perDay: Int64 = 86_400_000
        let days = milliseconds / perDay - (milliseconds % perDay < 0 ? 1 : 0)
        return CivilDate(daysSinceEpoch: days)
    }
}
