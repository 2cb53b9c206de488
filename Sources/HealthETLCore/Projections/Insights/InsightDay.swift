/// One metric's day as insights read it: its value, its baseline, how far it deviates, its
/// trend, and for each rule of the metric the days in a row the rule's condition has held.
///
/// Everything in it depends only on the metric's values of the day and the 56 days before it
/// (`InsightCalculator.dependencyDays`), so a day is recomputed exactly when one of those changes.
public struct InsightDay: Sendable, Equatable, Codable {
    public let metric: String
    public let day: CivilDate
    /// The day's value in the rule's unit: a cumulative metric's sum, a discrete one's average,
    /// sleep's hours asleep in the night that ends that morning.
    public let value: Double
    /// nil when fewer than 14 of the previous 28 days have a value.
    public let baseline: InsightBaseline?
    /// (value − median) / MAD, the MAD raised to 1 % of the median when smaller.
    public let deviation: Double?
    /// Mean of the days with a value among this day and the 6 before it (at least 4 of them).
    public let mean7: Double?
    /// Mean of the days with a value among this day and the 27 before it (at least 14 of them).
    public let mean28: Double?
    /// Rule id → consecutive days up to this one the rule's condition held (1...28), for the
    /// rules whose condition holds today.
    public let streaks: [InsightStreak]

    public init(
        metric: String, day: CivilDate, value: Double, baseline: InsightBaseline?, deviation: Double?, mean7: Double?,
        mean28: Double?, streaks: [InsightStreak]
    ) {
        self.metric = metric
        self.day = day
        self.value = value
        self.baseline = baseline
        self.deviation = deviation
        self.mean7 = mean7
        self.mean28 = mean28
        self.streaks = streaks
    }

    private enum CodingKeys: String, CodingKey {
        case metric, day, value, baseline, deviation, mean7 = "mean_7d", mean28 = "mean_28d", streaks
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            metric: try container.decode(String.self, forKey: .metric), day: try container.decodeDate(forKey: .day),
            value: try container.decode(Double.self, forKey: .value),
            baseline: try container.decodeIfPresent(InsightBaseline.self, forKey: .baseline),
            deviation: try container.decodeIfPresent(Double.self, forKey: .deviation),
            mean7: try container.decodeIfPresent(Double.self, forKey: .mean7),
            mean28: try container.decodeIfPresent(Double.self, forKey: .mean28),
            streaks: try container.decode([InsightStreak].self, forKey: .streaks))
    }

    /// Every key is written, `null` where there is no figure, so clients see one shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(metric, forKey: .metric)
        try container.encode(day.description, forKey: .day)
        try container.encode(value, forKey: .value)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(deviation, forKey: .deviation)
        try container.encode(mean7, forKey: .mean7)
        try container.encode(mean28, forKey: .mean28)
        try container.encode(streaks, forKey: .streaks)
    }
}
