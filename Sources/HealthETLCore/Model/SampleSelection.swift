/// Which stored samples an export reads: metrics, a range of start times, one source.
public struct SampleSelection: Sendable {
    /// Catalog metric ids, read one after the other in this order.
    public var metrics: [String]
    /// Samples that start in this range (all when `nil`).
    public var starts: Range<Instant>?
    /// One source's samples only, by its exact name.
    public var source: String?
    /// Panel metrics to read with their components (panel id → component ids): the panel carries
    /// its components, and a component sample a selected panel holds is not read again on its own.
    public var panels: [String: [String]]
    /// Whether the samples' stored metadata is read too (only formats that write it ask).
    public var metadata: Bool

    public init(
        metrics: [String], starts: Range<Instant>? = nil, source: String? = nil, panels: [String: [String]] = [:],
        metadata: Bool = false
    ) {
        self.metrics = metrics
        self.starts = starts
        self.source = source
        self.panels = panels
        self.metadata = metadata
    }
}
