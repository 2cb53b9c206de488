import HealthETLCore

/// The sources a reader holds samples of, with the devices they wrote from, and the source
/// priority the rollups use.
public struct SourceSummary: Sendable, Equatable, Encodable {
    public var sources: [SourceSamples]
    /// The configured order, most trusted first; sources not named rank after it by class.
    public var priority: [String]
    /// Orders a source gave for single metrics (a phone's per-type app priority).
    public var priorityByMetric: [String: [String]]

    public init(sources: [SourceSamples], priority: [String], priorityByMetric: [String: [String]]) {
        self.sources = sources
        self.priority = priority
        self.priorityByMetric = priorityByMetric
    }

    private enum CodingKeys: String, CodingKey {
        case sources, priority
        case priorityByMetric = "priority_by_metric"
    }
}
