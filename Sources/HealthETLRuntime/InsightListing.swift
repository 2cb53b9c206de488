import HealthETLCore

/// What `insights` shows: the insights of the range, the rules they come from, and every day's
/// figures (in the collector API's shapes).
public struct InsightListing: Encodable, Sendable {
    /// One rule as documented: what it tests, on how many days in a row.
    public struct Rule: Encodable, Sendable {
        public let id: String
        public let metric: String
        public let test: String
        public let days: Int

        init(_ rule: InsightRule) {
            id = rule.id
            metric = rule.metric
            days = rule.days
            switch rule.condition {
            case .aboveBaseline(let mads, let least):
                test = "≥ \(Self.number(mads)) MAD and ≥ \(Self.number(least)) \(rule.unit) above the 28-day median"
            case .belowBaseline(let mads, let least):
                test =
                    mads > 0
                    ? "≥ \(Self.number(mads)) MAD below the 28-day median"
                        + (least > 0 ? " and ≥ \(Self.number(least)) \(rule.unit)" : "")
                    : "≥ \(Self.number(least)) \(rule.unit) below the 28-day median"
            case .weekBelowMonth(let fraction):
                test = "7-day mean ≥ \(Int((fraction * 100).rounded())) % below the 28-day mean"
            }
        }

        private static func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }

    public let from: String
    public let to: String
    public let origin: ProjectionListing.Origin
    public let rules: [Rule]
    public let insights: [Insight]
    public let days: [InsightDay]
}
