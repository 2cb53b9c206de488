/// A metric with its unit spellings and category values looked up once, ready for the hot path.
public struct ResolvedMetric: Sendable {
    public let definition: MetricDefinition
    /// Accepted unit spelling → conversion to the canonical unit (quantity kinds).
    public let conversions: [String: UnitConversion]
    /// Accepted value spelling → canonical category value (category kind).
    public let categoryValues: [String: String]

    public var id: String { definition.id }
}
