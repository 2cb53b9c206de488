import HealthETLCore
import HealthETLWire

/// The order rules of a deletion and a sample's return, the same on every storage: a deletion
/// and the sample coming back at the source are applied in the order they happened there,
/// whichever arrives first (batches overtake one another).
package enum DeletionOrder {
    /// Whether a sample the user's data has as deleted (at `deletedAt`, milliseconds; `Int64.min`
    /// when the client did not say) stays refused: it does unless it came back at the source
    /// after that deletion (an edit arrives as a new sample with a new id).
    package static func staysDeleted(_ sample: Sample, deletedAt: Int64) -> Bool {
        guard let restores = sample.restoresDeletionAt?.millisecondsSinceEpoch else { return true }
        return restores < deletedAt
    }

    /// The rejection of a sample that stays deleted.
    package static func rejection(of sample: Sample, at position: Int, in batch: ValidatedBatch) -> WireRejection {
        WireRejection(
            item: "sample", index: batch.sampleIndexes[position], id: sample.id.description, reason: "deleted")
    }

    /// Whether a tombstone arrives after the sample it deletes came back at the source (at
    /// `restores`): then there is nothing to do.
    package static func isOvertaken(_ tombstone: Tombstone, restores: Int64?) -> Bool {
        guard let restores else { return false }
        return restores >= tombstone.deletedAt.millisecondsSinceEpoch
    }

    /// What an upsert does to a stored sample's `columns` (both storages' SQL): the latest values
    /// win, and a restoration time only ever grows.
    package static func upsertAssignments(replacing columns: [String]) -> String {
        columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            + """
            ,
            restores_ms = CASE WHEN samples.restores_ms IS NULL OR excluded.restores_ms > samples.restores_ms
                THEN excluded.restores_ms ELSE samples.restores_ms END
            """
    }

    /// The upsert's assignments where a sample's texts are columns of their own (PostgreSQL).
    package static let upsertAssignments = upsertAssignments(replacing: [
        "end_ms", "source", "source_version", "device", "utc_offset_s", "time_zone", "value", "category",
        "user_entered", "flags", "updated_ms",
    ])
}
