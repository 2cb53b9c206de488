import HealthETLCore
import HealthETLStore

/// Turns a gathered batch of raw records into the batch the store commits.
final class BatchNormalizer {
    private let catalog: MetricCatalog
    /// Kept from batch to batch: the next batch's records often continue this one's run.
    private var run = RecordRun()

    init(catalog: MetricCatalog) {
        self.catalog = catalog
    }

    func normalize(_ raw: RawBatch) -> (CommitBatch, BatchNotes) {
        // Local values: stored ones would be copied out of the class for every record.
        let normalizer = Normalizer(catalog: catalog, now: raw.now)
        var run = self.run
        self.run = RecordRun()
        defer { self.run = run }
        var batch = CommitBatch(
            stream: raw.stream, tombstones: raw.tombstones, workouts: raw.workouts,
            activitySummaries: raw.activitySummaries, documents: raw.documents, snapshot: raw.snapshot,
            cursors: raw.cursors)
        batch.samples.reserveCapacity(raw.records.count)
        var notes = BatchNotes()
        notes.roles.reserveCapacity(raw.records.count)
        notes.flags.reserveCapacity(raw.records.count)
        var coverage: [CoverageKey: SnapshotCoverage] = [:]
        var nextTombstone = 0
        for (index, entry) in raw.records.enumerated() {
            // Each tombstone's place among the records becomes its place among the samples.
            while nextTombstone < raw.tombstonePositions.count, raw.tombstonePositions[nextTombstone] <= index {
                batch.tombstonePositions.append(batch.samples.count)
                nextTombstone += 1
            }
            switch normalizer.normalize(entry.record, as: run.metric(named: entry.record.type, in: catalog)) {
            case .accepted(let sample), .flagged(let sample):
                batch.samples.append(
                    LanedSample(sample, lane: entry.lane, metadataJSON: run.metadataJSON(sample.metadata)))
                notes.roles.append(entry.role)
                notes.flags.append(sample.flags)
                if raw.snapshot != nil { run.cover(sample, in: &coverage) }
            case .quarantined(let record):
                batch.quarantined.append(record)
                notes.quarantinedByRole[entry.role, default: 0] += 1
                if entry.role == .record { notes.quarantinedByReason[record.reason.rawValue, default: 0] += 1 }
            }
        }
        // The rest come after every sample.
        batch.tombstonePositions += Array(
            repeating: batch.samples.count, count: raw.tombstonePositions.count - nextTombstone)
        run.settleCoverage(into: &coverage)
        batch.coverage = Array(coverage.values)
        return (batch, notes)
    }
}
