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
}

/// A source and a metric: the unit within which a newer snapshot's absences mean deletions.
/// Compared by bytes: both are canonical already (the normalizer's source name, the catalog's
/// metric id), and `String`'s hash normalizes every non-ASCII name again.
struct CoverageKey: Hashable, Sendable {
    let source: ExactText
    let metric: ExactText

    init(source: String, metric: String) {
        self.source = ExactText(source)
        self.metric = ExactText(metric)
    }
}
