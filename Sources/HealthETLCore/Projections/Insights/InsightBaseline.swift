/// A metric's usual value before a day: the median and the median absolute deviation (MAD) of
/// the previous 28 days that have a value.
public struct InsightBaseline: Sendable, Equatable, Codable {
    public let median: Double
    public let mad: Double
    /// How many of the 28 days had a value (at least `InsightCalculator.minimumBaselineDays`).
    public let days: Int

    public init(median: Double, mad: Double, days: Int) {
        self.median = median
        self.mad = mad
        self.days = days
    }
}
