/// The time range a snapshot covers for one source and metric: where absences mean deletions.
public struct SnapshotCoverage: Hashable, Sendable {
    public var sourceName: String
    public var metric: String
    public var earliestStart: Instant
    public var latestStart: Instant

    public init(sourceName: String, metric: String, earliestStart: Instant, latestStart: Instant) {
        self.sourceName = sourceName
        self.metric = metric
        self.earliestStart = earliestStart
        self.latestStart = latestStart
    }
}

extension SnapshotCoverage {
    /// This range widened to include `other`.
    public func union(_ other: SnapshotCoverage) -> SnapshotCoverage {
        var merged = self
        merged.earliestStart = Swift.min(earliestStart, other.earliestStart)
        merged.latestStart = Swift.max(latestStart, other.latestStart)
        return merged
    }
}
