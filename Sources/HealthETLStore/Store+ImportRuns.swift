import HealthETLCore
import HealthETLSQLite

extension Store {
    /// Records that an import of `input` by `source` started; returns the run's id.
    /// - Parameter snapshotTakenAt: the export date when the input is a full snapshot.
    public func beginImportRun(source: String, input: String, stream: String? = nil, snapshotTakenAt: Instant? = nil)
        throws -> Int64
    {
        try connection.prepare(
            """
            INSERT INTO import_runs(source, input, started_ms, stream, snapshot_taken_ms)
            VALUES (?1, ?2, ?3, ?4, ?5)
            """
        ).run(
            .text(source), .text(input), .integer(now().millisecondsSinceEpoch), .optional(stream),
            .optional(snapshotTakenAt?.millisecondsSinceEpoch))
        return try connection.scalar("SELECT last_insert_rowid()") ?? 0
    }

    /// Names the stream and snapshot date of a run once the source has said what they are.
    public func describeImportRun(id: Int64, stream: String, snapshotTakenAt: Instant?) throws {
        try connection.prepare("UPDATE import_runs SET stream = ?2, snapshot_taken_ms = ?3 WHERE id = ?1")
            .run(.integer(id), .text(stream), .optional(snapshotTakenAt?.millisecondsSinceEpoch))
    }

    /// Records how an import run ended, with its summary as JSON.
    public func finishImportRun(id: Int64, complete: Bool, summaryJSON: String) throws {
        try connection.prepare(
            "UPDATE import_runs SET finished_ms = ?2, complete = ?3, summary = ?4 WHERE id = ?1"
        ).run(
            .integer(id), .integer(now().millisecondsSinceEpoch), .integer(complete ? 1 : 0), .text(summaryJSON))
    }
}
