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
            test = rule.test
        }
    }

    public let from: String
    public let to: String
    public let origin: ProjectionListing.Origin
    public let rules: [Rule]
    public let insights: [Insight]
    public let days: [InsightDay]
}
