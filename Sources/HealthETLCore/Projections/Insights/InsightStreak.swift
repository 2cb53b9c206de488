/// How many consecutive days, up to and including one day, a rule's condition has held.
public struct InsightStreak: Sendable, Equatable, Codable {
    public let rule: String
    public let days: Int

    public init(rule: String, days: Int) {
        self.rule = rule
        self.days = days
    }
}
