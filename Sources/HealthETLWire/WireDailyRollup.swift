import HealthETLCore

/// One local day of one metric, as `GET /v1/projections/daily` returns it.
public struct WireDailyRollup: Codable, Sendable, Equatable {
    public var metric: String
    /// YYYY-MM-DD, the local day.
    public var day: String
    /// Cumulative metrics: the total by source priority.
    public var sum: Double?
    /// Discrete metrics: the mean, min and max of the day's samples.
    public var avg: Double?
    public var min: Double?
    public var max: Double?
    public var count: Int
    public var latest: Double?
    public var sources: [String]
    public var coverageSeconds: Double
    /// RFC 3339: when the collector computed this day.
    public var computedAt: String

    public init(
        metric: String, day: String, sum: Double?, avg: Double?, min: Double?, max: Double?, count: Int,
        latest: Double?, sources: [String], coverageSeconds: Double, computedAt: String
    ) {
        self.metric = metric
        self.day = day
        self.sum = sum
        self.avg = avg
        self.min = min
        self.max = max
        self.count = count
        self.latest = latest
        self.sources = sources
        self.coverageSeconds = coverageSeconds
        self.computedAt = computedAt
    }

    private enum CodingKeys: String, CodingKey {
        case metric, day, sum, avg, min, max, count, latest, sources
        case coverageSeconds = "coverage_s"
        case computedAt = "computed_at"
    }

    /// Every key is written, `null` where it does not apply, so clients see one shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(metric, forKey: .metric)
        try container.encode(day, forKey: .day)
        try container.encode(sum, forKey: .sum)
        try container.encode(avg, forKey: .avg)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
        try container.encode(count, forKey: .count)
        try container.encode(latest, forKey: .latest)
        try container.encode(sources, forKey: .sources)
        try container.encode(coverageSeconds, forKey: .coverageSeconds)
        try container.encode(computedAt, forKey: .computedAt)
    }
}

extension WireDailyRollup {
    /// The wire form of a computed rollup: `sum` for cumulative metrics, statistics otherwise.
    public init(_ rollup: DailyRollup, computedAt: String) {
        self.init(
            metric: rollup.metric, day: rollup.day.description, sum: rollup.sum, avg: rollup.average,
            min: rollup.minimum,
            max: rollup.maximum, count: rollup.count, latest: rollup.latest, sources: rollup.sources,
            coverageSeconds: rollup.coverageSeconds, computedAt: computedAt)
    }
}

extension DailyRollup {
    /// A day as a sink served it; `nil` when its day or computing time is not RFC 3339 text.
    public init?(_ wire: WireDailyRollup) {
        guard let day = CivilDate(text: wire.day), let computedAt = TimestampParser.parse(wire.computedAt) else {
            return nil
        }
        self.init(
            metric: wire.metric, day: day, sum: wire.sum, average: wire.avg, minimum: wire.min, maximum: wire.max,
            count: wire.count, latest: wire.latest, sources: wire.sources, coverageSeconds: wire.coverageSeconds,
            computedAt: computedAt.instant)
    }
}
