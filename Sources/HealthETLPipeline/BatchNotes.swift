import HealthETLCore
import HealthETLStore

/// What the normalizer learned about a batch that the summary needs once it is committed.
struct BatchNotes: Sendable {
    /// The role of each sample of the committed batch, in batch order.
    var roles: [RecordRole] = []
    /// The flags of each sample, in batch order.
    var flags: [SampleFlags] = []
    /// Quarantined records by role, and top-level ones by reason.
    var quarantinedByRole: [RecordRole: Int] = [:]
    var quarantinedByReason: [String: Int] = [:]
    /// The time range each source and metric covers in this batch (full snapshots only).
    var coverage: [CoverageKey: SnapshotCoverage] = [:]
}

/// A source and a metric: the unit within which a newer snapshot's absences mean deletions.
struct CoverageKey: Hashable, Sendable {
    let source: String
    let metric: String
}

extension SnapshotCoverage {
    /// This range widened to include `other`.
    func union(_ other: SnapshotCoverage) -> SnapshotCoverage {
        var merged = self
        merged.earliestStart = Swift.min(earliestStart, other.earliestStart)
        merged.latestStart = Swift.max(latestStart, other.latestStart)
        return merged
    }
}
