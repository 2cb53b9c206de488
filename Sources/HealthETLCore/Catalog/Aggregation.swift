/// What a daily rollup reports for a metric.
public enum Aggregation: String, Sendable, Codable, CaseIterable {
    /// Sum by source priority per time slice (cumulative metrics).
    case sum
    /// Average, minimum, maximum, count and latest (discrete metrics).
    case statistics
    /// The latest value of the day (metrics written about once a day).
    case latest
    /// Total time covered (categories and intervals).
    case duration
    /// Number of occurrences (events).
    case count
    /// Reported through its component metrics (correlations).
    case panel

    /// The aggregations that make sense for a kind.
    static func allowed(for kind: MetricKind) -> Set<Aggregation> {
        switch kind {
        case .cumulative: return [.sum]
        case .discrete: return [.statistics, .latest]
        case .category, .interval: return [.duration, .count]
        case .correlation: return [.panel]
        }
    }
}
