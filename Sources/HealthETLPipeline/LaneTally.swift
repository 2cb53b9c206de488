import HealthETLCore
import HealthETLStore

/// What one lane of a live run committed: records by outcome, deletions, workouts, and where
/// its cursors stand.
public struct LaneTally: Codable, Equatable, Sendable {
    public var batches = 0
    public var records = 0
    public var accepted = 0
    public var flagged = 0
    public var quarantined = 0
    public var duplicates = 0
    /// Records a deletion committed earlier keeps out (a change overtook its backfill).
    public var deletedEarlier = 0
    public var tombstones = 0
    public var workouts = 0

    public init() {}

    mutating func add(_ result: CommitResult, notes: BatchNotes) {
        batches += 1
        for (index, outcome) in result.sampleOutcomes.enumerated() where notes.roles[index] == .record {
            records += 1
            switch outcome {
            case .inserted:
                if notes.flags[index].isEmpty { accepted += 1 } else { flagged += 1 }
            case .duplicate: duplicates += 1
            case .previouslyDeleted: deletedEarlier += 1
            }
        }
        let quarantinedRecords = notes.quarantinedByRole[.record] ?? 0
        quarantined += quarantinedRecords
        records += quarantinedRecords
        tombstones += result.tombstoned
        workouts += result.workouts
    }

    private enum CodingKeys: String, CodingKey {
        case batches, records, accepted, flagged, quarantined, duplicates, tombstones, workouts
        case deletedEarlier = "deleted_earlier"
    }
}
