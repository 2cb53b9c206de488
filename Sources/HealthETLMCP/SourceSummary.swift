/// The sources a reader holds samples of, with the devices they wrote from, and the source
/// priority the rollups use.
public struct SourceSummary: Sendable, Equatable, Encodable {
    public struct Source: Sendable, Equatable, Encodable {
        public var name: String
        public var samples: Int
        public var devices: [String]

        public init(name: String, samples: Int, devices: [String]) {
            self.name = name
            self.samples = samples
            self.devices = devices
        }
    }

    public var sources: [Source]
    /// The configured order, most trusted first; sources not named rank after it by class.
    public var priority: [String]
    /// Orders a source gave for single metrics (a phone's per-type app priority).
    public var priorityByMetric: [String: [String]]

    public init(sources: [Source], priority: [String], priorityByMetric: [String: [String]]) {
        self.sources = sources
        self.priority = priority
        self.priorityByMetric = priorityByMetric
    }

    private enum CodingKeys: String, CodingKey {
        case sources, priority
        case priorityByMetric = "priority_by_metric"
    }
}
