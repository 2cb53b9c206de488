/// How a metric's samples combine; decides which value rules and projections apply.
public enum MetricKind: String, Sendable, Codable, CaseIterable {
    /// An amount over an interval (steps, energy); summed, split across day boundaries.
    case cumulative
    /// A measurement (heart rate, weight); averaged, min, max, latest.
    case discrete
    /// An enum value over an interval (sleep stage, stand hour, events).
    case category
    /// A session with no value (workout, mindful minutes, ECG recording).
    case interval
    /// A panel of other samples (blood pressure).
    case correlation

    /// Whether samples of this kind carry a number in a canonical unit.
    public var isQuantity: Bool { self == .cumulative || self == .discrete }
}
