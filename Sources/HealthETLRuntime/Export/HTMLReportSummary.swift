/// What `healthetl report` wrote, for its closing line and `--json`.
public struct HTMLReportSummary: Codable, Sendable {
    public var output: String
    public var from: String
    public var to: String
    /// Charted days per metric (steps, resting heart rate, HRV, weight) and sleep nights.
    public var chartedDays: [String: Int]
    public var sleepNights: Int
    public var workouts: Int
    public var bytes: Int
    public var seconds: Double

    enum CodingKeys: String, CodingKey {
        case output, from, to
        case chartedDays = "charted_days"
        case sleepNights = "sleep_nights"
        case workouts, bytes, seconds
    }
}
