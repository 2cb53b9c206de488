extension RawBatch {
    /// How much a batch held at one moment, to take back what was gathered after it.
    struct Mark {
        var records = 0
        var tombstones = 0
        var workouts = 0
        var carriedRows = 0
        var activitySummaries = 0
        var documents = 0
    }

    var mark: Mark {
        Mark(
            records: records.count, tombstones: tombstones.count, workouts: workouts.count, carriedRows: carriedRows,
            activitySummaries: activitySummaries.count, documents: documents.count)
    }

    /// Drops what was gathered after `mark` (a resumed read handing on what is already committed).
    mutating func truncate(to mark: Mark) {
        records.removeSubrange(mark.records...)
        tombstones.removeSubrange(mark.tombstones...)
        tombstonePositions.removeSubrange(min(mark.tombstones, tombstonePositions.count)...)
        workouts.removeSubrange(mark.workouts...)
        carriedRows = mark.carriedRows
        activitySummaries.removeSubrange(mark.activitySummaries...)
        documents.removeSubrange(mark.documents...)
    }
}
