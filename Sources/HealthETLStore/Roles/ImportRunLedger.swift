import HealthETLCore

/// Each import run, and what a complete export snapshot covered: how a newer snapshot finds the
/// samples that vanished from it.
public protocol ImportRunLedger: AnyObject {
    func beginImportRun(source: String, input: String, stream: String?, snapshotTakenAt: Instant?) throws -> Int64
    func describeImportRun(id: Int64, stream: String, snapshotTakenAt: Instant?) throws
    func finishImportRun(id: Int64, complete: Bool, summaryJSON: String) throws
    /// Replaces what `source` says of its own source order per metric (a phone's app priority).
    func replaceSourcePriority(source: String, sourcesByMetric: [String: [String]]) throws
    func latestCompleteSnapshot(source: String, excluding run: Int64, notAfter: Instant) throws
        -> Store.CompletedSnapshot?
    func snapshotCoverage(stream: String) throws -> [SnapshotCoverage]
    func rollBack(run: Int64, stream: String, cursors: [Lane: Int64], coverage: [SnapshotCoverage]) throws -> Int
    func samplesMissing(
        from snapshot: Instant, streamPrefix: String, coverage: SnapshotCoverage, notAfter: Instant,
        afterRow: Int64, limit: Int
    ) throws -> (tombstoneCandidates: [(row: Int64, id: ContentID, start: Instant)], lastRow: Int64)
}

extension Store: ImportRunLedger {}
