/// One metric's figures for one local day, as the dashboards and the API report them.
///
/// Which fields are set depends on the aggregation: `sum` for cumulative metrics; `average`,
/// `minimum`, `maximum` and `latest` for discrete ones; only `coverageSeconds` and `count` for
/// categories and intervals.
public struct DailyRollup: Hashable, Sendable {
    public var metric: String
    public var day: CivilDate
    /// Cumulative metrics: the total after source priority, in the metric's canonical unit.
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    /// Samples that contributed to this day.
    public var count: Int
    /// Discrete metrics: the value of the sample that ends last.
    public var latest: Double?
    /// Names of the sources that contributed, sorted.
    public var sources: [String]
    /// Length of the union of the contributing intervals within the day.
    public var coverageSeconds: Double
    /// When it was computed, where the day was read from a sink (`nil` when computed here).
    public var computedAt: Instant?

    public init(
        metric: String, day: CivilDate, sum: Double? = nil, average: Double? = nil, minimum: Double? = nil,
        maximum: Double? = nil, count: Int, latest: Double? = nil, sources: [String], coverageSeconds: Double,
        computedAt: Instant? = nil
    ) {
        self.metric = metric
        self.day = day
        self.computedAt = computedAt
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.count = count
        self.latest = latest
        self.sources = sources
        self.coverageSeconds = coverageSeconds
    }
}
