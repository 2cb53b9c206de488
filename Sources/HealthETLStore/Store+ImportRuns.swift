import HealthETLCore

extension Store {
    /// Records that an import of `input` by `source` started; returns the run's id.
    public func beginImportRun(source: String, input: String) throws -> Int64 {
        try connection.prepare("INSERT INTO import_runs(source, input, started_ms) VALUES (?1, ?2, ?3)")
            .run(.text(source), .text(input), .integer(now().millisecondsSinceEpoch))
        return try connection.scalar("SELECT last_insert_rowid()") ?? 0
    }

    /// Records how an import run ended, with its summary as JSON.
    public func finishImportRun(id: Int64, complete: Bool, summaryJSON: String) throws {
        try connection.prepare(
            "UPDATE import_runs SET finished_ms = ?2, complete = ?3, summary = ?4 WHERE id = ?1"
        ).run(
            .integer(id), .integer(now().millisecondsSinceEpoch), .integer(complete ? 1 : 0),
            .text(summaryJSON))
    }
}
