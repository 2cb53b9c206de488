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
    /// Cumulative metrics computed here: each source's part of `sum` after priority (they add up
    /// to it), for the report's breakdown. Empty where the day was read from a sink.
    public var sumBySource: [String: Double] = [:]

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

extension DailyRollup {
    /// Equal in the figures a rollup reports: `sumBySource` is derived detail that only a rollup
    /// computed here carries, so one read back from a sink equals the one it was computed as.
    public static func == (lhs: DailyRollup, rhs: DailyRollup) -> Bool {
        lhs.metric == rhs.metric && lhs.day == rhs.day && lhs.sum == rhs.sum && lhs.average == rhs.average
            && lhs.minimum == rhs.minimum && lhs.maximum == rhs.maximum && lhs.count == rhs.count
            && lhs.latest == rhs.latest && lhs.sources == rhs.sources && lhs.coverageSeconds == rhs.coverageSeconds
            && lhs.computedAt == rhs.computedAt
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(metric)
        hasher.combine(day)
        hasher.combine(sum)
        hasher.combine(count)
    }
}
