import HealthETLCore
import HealthETLSQLite

extension Store {
    /// A completed import of a full snapshot.
    public struct CompletedSnapshot: Equatable, Sendable {
        public var run: Int64
        public var takenAt: Instant
    }

    /// The complete snapshot of `source` with the latest date no later than `notAfter`, other
    /// than run `excluding`. A snapshot dated later than that (recorded before such dates were
    /// refused) is not believed: it never decides what a real export supersedes.
    public func latestCompleteSnapshot(source: String, excluding run: Int64, notAfter: Instant) throws
        -> CompletedSnapshot?
    {
        let statement = try connection.prepare(
            """
            SELECT id, snapshot_taken_ms FROM import_runs
            WHERE source = ?1 AND complete = 1 AND snapshot_taken_ms IS NOT NULL AND id <> ?2
              AND snapshot_taken_ms <= ?3
            ORDER BY snapshot_taken_ms DESC, id DESC LIMIT 1
            """)
        try statement.bind(.text(source), .integer(run), .integer(notAfter.millisecondsSinceEpoch))
        return try statement.firstRow {
            CompletedSnapshot(run: $0.int64(0), takenAt: Instant(millisecondsSinceEpoch: $0.int64(1)))
        }
    }

    /// Samples of earlier snapshots of the `streamPrefix` family that the snapshot taken at
    /// `snapshot` no longer contains, inside `coverage` and no later than `notAfter`: the deletions a newer export implies.
    /// Returned in pages of `limit`, after sample row `afterRow`. Only samples last seen in an
    /// older snapshot qualify: one a later-dated snapshot claims, or no snapshot at all, is kept.
    public func samplesMissing(
        from snapshot: Instant, streamPrefix: String, coverage: SnapshotCoverage, notAfter: Instant,
        afterRow: Int64, limit: Int
    ) throws -> (tombstoneCandidates: [(row: Int64, id: ContentID, start: Instant)], lastRow: Int64) {
        let upper = min(coverage.latestStart, notAfter)
        guard upper >= coverage.earliestStart else { return ([], afterRow) }
        let statement = try prepared(
            """
            SELECT s.rowid, s.id, s.start_ms FROM samples s
            JOIN sources so ON so.id = s.source_id
            JOIN metrics m ON m.id = s.metric_id
            JOIN streams st ON st.id = s.stream_id
            WHERE m.name = ?1 AND so.name = ?2 AND s.start_ms BETWEEN ?3 AND ?4
              AND s.snapshot_ms < ?5 AND s.rowid > ?6
              AND substr(st.name, 1, length(?7)) = ?7
            ORDER BY s.rowid LIMIT ?8
            """)
        try statement.bind(
            .text(coverage.metric), .text(coverage.sourceName), .integer(coverage.earliestStart.millisecondsSinceEpoch),
            .integer(upper.millisecondsSinceEpoch), .integer(snapshot.millisecondsSinceEpoch), .integer(afterRow),
            .text(streamPrefix),
            .integer(Int64(limit)))
        var rows: [(row: Int64, id: ContentID, start: Instant)] = []
        var last = afterRow
        while try statement.step() {
            last = statement.int64(0)
            rows.append(
                (last, statement.contentID(1), Instant(millisecondsSinceEpoch: statement.int64(2))))
        }
        return (rows, last)
    }

    /// What the snapshot read as `stream` covers, per source and metric, over every run that
    /// committed part of it.
    public func snapshotCoverage(stream: String) throws -> [SnapshotCoverage] {
        let statement = try prepared(
            """
            SELECT m.name, so.name, c.earliest_ms, c.latest_ms FROM snapshot_coverage c
            JOIN streams st ON st.id = c.stream_id
            JOIN metrics m ON m.id = c.metric_id
            JOIN sources so ON so.id = c.source_id
            WHERE st.name = ?1 ORDER BY m.name, so.name
            """)
        try statement.bind(.text(stream))
        var ranges: [SnapshotCoverage] = []
        while try statement.step() {
            ranges.append(
                SnapshotCoverage(
                    sourceName: statement.text(1) ?? "", metric: statement.text(0) ?? "",
                    earliestStart: Instant(millisecondsSinceEpoch: statement.int64(2)),
                    latestStart: Instant(millisecondsSinceEpoch: statement.int64(3))))
        }
        return ranges
    }
}
