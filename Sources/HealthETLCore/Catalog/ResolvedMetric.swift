/// A metric with its unit spellings and category values looked up once, ready for the hot path.
///
/// A class, immutable: the normalizer hands it around once per record, and passing a reference
/// costs one retain where copying the definition's dozen strings and tables would cost dozens.
public final class ResolvedMetric: Sendable {
    public let definition: MetricDefinition
    /// Accepted unit spelling → conversion to the canonical unit (quantity kinds).
    public let conversions: [String: UnitConversion]
    /// Accepted value spelling → canonical category value (category kind).
    public let categoryValues: [String: String]
    /// `SampleBounds.longestSpan(of: definition)`, and `SampleBounds.summariesCount(definition)`:
    /// read per record, where passing the definition along would copy it.
    public let longestSpanSeconds: Int64
    public let summariesCount: Bool

    public var id: String { definition.id }

    public init(definition: MetricDefinition, conversions: [String: UnitConversion], categoryValues: [String: String]) {
        self.definition = definition
        self.conversions = conversions
        self.categoryValues = categoryValues
        self.longestSpanSeconds = SampleBounds.longestSpan(of: definition)
        self.summariesCount = SampleBounds.summariesCount(definition)
    }
}
