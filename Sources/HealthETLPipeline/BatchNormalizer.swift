import HealthETLCore
import HealthETLStore

/// Turns a gathered batch of raw records into the batch the store commits.
final class BatchNormalizer {
    private let catalog: MetricCatalog
    private var lastMetric: (type: String, metric: ResolvedMetric?)?
    private var lastCoverage: SnapshotCoverage?
    /// The last metadata rendered as JSON: the points of one series (or one device's records)
    /// repeat it, and comparing is far cheaper than rendering.
    private var lastMetadata: (entries: [MetadataEntry], json: String?) = ([], nil)

    init(catalog: MetricCatalog) {
        self.catalog = catalog
    }

    func normalize(_ raw: RawBatch) -> (CommitBatch, BatchNotes) {
        // A local value: a stored one would be copied out of the class for every record.
        let normalizer = Normalizer(catalog: catalog, now: raw.now)
        var batch = CommitBatch(
            stream: raw.stream, tombstones: raw.tombstones, workouts: raw.workouts,
            activitySummaries: raw.activitySummaries, documents: raw.documents, snapshot: raw.snapshot,
            cursors: raw.cursors)
        batch.samples.reserveCapacity(raw.records.count)
        var notes = BatchNotes()
        notes.roles.reserveCapacity(raw.records.count)
        notes.flags.reserveCapacity(raw.records.count)
        var coverage: [CoverageKey: SnapshotCoverage] = [:]
        lastCoverage = nil
        var nextTombstone = 0
        for (index, entry) in raw.records.enumerated() {
            // Each tombstone's place among the records becomes its place among the samples.
            while nextTombstone < raw.tombstonePositions.count, raw.tombstonePositions[nextTombstone] <= index {
                batch.tombstonePositions.append(batch.samples.count)
                nextTombstone += 1
            }
            switch normalizer.normalize(entry.record, as: metric(named: entry.record.type)) {
            case .accepted(let sample), .flagged(let sample):
                batch.samples.append(LanedSample(sample, lane: entry.lane, metadataJSON: metadataJSON(sample.metadata)))
                notes.roles.append(entry.role)
                notes.flags.append(sample.flags)
                if raw.snapshot != nil { cover(sample, in: &coverage) }
            case .quarantined(let record):
                batch.quarantined.append(record)
                notes.quarantinedByRole[entry.role, default: 0] += 1
                if entry.role == .record { notes.quarantinedByReason[record.reason.rawValue, default: 0] += 1 }
            }
        }
        // The rest come after every sample.
        batch.tombstonePositions += Array(
            repeating: batch.samples.count, count: raw.tombstonePositions.count - nextTombstone)
        if let last = lastCoverage {
            let key = CoverageKey(source: last.sourceName, metric: last.metric)
            coverage[key] = coverage[key].map { $0.union(last) } ?? last
        }
        batch.coverage = Array(coverage.values)
        return (batch, notes)
    }

    private func metadataJSON(_ entries: [MetadataEntry]) -> String? {
        guard !entries.isEmpty else { return nil }
        if entries != lastMetadata.entries {
            lastMetadata = (entries, JSONText.pairs(entries))
        }
        return lastMetadata.json
    }

    /// The catalog entry for a type, remembered while the same type repeats.
    private func metric(named type: String) -> ResolvedMetric? {
        if let last = lastMetric, last.type == type { return last.metric }
        let metric = catalog.metric(named: type)
        lastMetric = (type, metric)
        return metric
    }

    /// Widens the covered range of the sample's source and metric. Records come grouped by type
    /// and source, so the last range is extended without hashing.
    private func cover(_ sample: Sample, in coverage: inout [CoverageKey: SnapshotCoverage]) {
        if lastCoverage?.sourceName == sample.sourceName, lastCoverage?.metric == sample.metric {
            // Widened in place: no copy of the range's strings per sample.
            if sample.start < lastCoverage!.earliestStart { lastCoverage!.earliestStart = sample.start }
            if sample.start > lastCoverage!.latestStart { lastCoverage!.latestStart = sample.start }
            return
        }
        if let last = lastCoverage {
            let key = CoverageKey(source: last.sourceName, metric: last.metric)
            coverage[key] = coverage[key].map { $0.union(last) } ?? last
        }
        let point = SnapshotCoverage(
            sourceName: sample.sourceName, metric: sample.metric, earliestStart: sample.start, latestStart: sample.start
        )
        let key = CoverageKey(source: sample.sourceName, metric: sample.metric)
        lastCoverage = coverage.removeValue(forKey: key).map { $0.union(point) } ?? point
    }
}
