/// A run of days on which a rule held long enough to report: "above / below your usual".
public struct Insight: Sendable, Equatable, Codable {
    public let rule: String
    public let metric: String
    /// First and last day of the run (a run longer than 28 days is reported from its last 28).
    public let first: CivilDate
    public let last: CivilDate
    /// The usual value: the baseline's median, or for a trend rule the 28-day mean, on the last day.
    public let baseline: Double
    /// The value on the last day, or for a trend rule its 7-day mean.
    public let observed: Double
    /// In MADs for a baseline rule; for a trend rule the 7-day mean's relative change (−0.35).
    public let deviation: Double
    public let unit: String
    /// One sentence for people, e.g. "Resting heart rate above your usual on 2 days in a row".
    public let text: String

    public init(
        rule: String, metric: String, first: CivilDate, last: CivilDate, baseline: Double, observed: Double,
        deviation: Double, unit: String, text: String
    ) {
        self.rule = rule
        self.metric = metric
        self.first = first
        self.last = last
        self.baseline = baseline
        self.observed = observed
        self.deviation = deviation
        self.unit = unit
        self.text = text
    }

    /// The run's days, first to last.
    public var days: Int { Int(last.daysSinceEpoch - first.daysSinceEpoch) + 1 }

    private enum CodingKeys: String, CodingKey {
        case rule, metric, first, last, days, baseline, observed, deviation, unit, text
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            rule: try container.decode(String.self, forKey: .rule),
            metric: try container.decode(String.self, forKey: .metric),
            first: try container.decodeDate(forKey: .first), last: try container.decodeDate(forKey: .last),
            baseline: try container.decode(Double.self, forKey: .baseline),
            observed: try container.decode(Double.self, forKey: .observed),
            deviation: try container.decode(Double.self, forKey: .deviation),
            unit: try container.decode(String.self, forKey: .unit),
            text: try container.decode(String.self, forKey: .text))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule, forKey: .rule)
        try container.encode(metric, forKey: .metric)
        try container.encode(first.description, forKey: .first)
        try container.encode(last.description, forKey: .last)
        try container.encode(days, forKey: .days)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(observed, forKey: .observed)
        try container.encode(deviation, forKey: .deviation)
        try container.encode(unit, forKey: .unit)
        try container.encode(text, forKey: .text)
    }
}
