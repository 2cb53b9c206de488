import Foundation
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// The schema as migrations leave it, for new stores and for stores older releases wrote.
@Suite struct StoreSchemaTests {
    let directory = TemporaryDirectory()

    static let sampleInsert = """
        INSERT INTO samples(id, metric_id, source_id, start_ms, end_ms, lane, stream_id, committed_ms)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        ON CONFLICT DO NOTHING
        """

    func opcodes(_ sql: String, on connection: SQLiteConnection) throws -> [String] {
        let plan = try connection.prepare("EXPLAIN " + sql)
        var names: [String] = []
        while try plan.step() { names.append(plan.text(1) ?? "") }
        return names
    }

    /// A temporary b-tree per inserted row cost a seventh of an import's CPU.
    @Test func insertingASampleBuildsNoTemporaryTable() throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")))
        let opcodes = try opcodes(Self.sampleInsert, on: store.connection)
        #expect(opcodes.contains("Insert"))
        #expect(!opcodes.contains("OpenEphemeral"))
    }

    /// The store as a release with only the first `count` migrations left it, with a metric, a
    /// source and a stream (id 1 each).
    func oldStore(at path: String, migrations count: Int) throws -> SQLiteConnection {
        try StoreDirectory(path: path).prepare()
        let old = try SQLiteConnection(path: path + "/" + StoreDirectory.databaseName)
        try old.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON")
        try Migrator(migrations: Array(StoreSchema.migrations.prefix(count))).migrate(old, nowMilliseconds: 0)
        try old.execute(
            """
            INSERT INTO metrics(id, name) VALUES (1, 'heart_rate');
            INSERT INTO sources(id, name) VALUES (1, 'Watch');
            INSERT INTO streams(id, name) VALUES (1, 's');
            """)
        return old
    }

    @Test func storeFromTheFirstReleaseGetsTheCheapLaneChecksAndKeepsItsRows() throws {
        let path = directory.child("store")
        do {
            // The store as a release with only the first two migrations left it, with a sample.
            let old = try oldStore(at: path, migrations: 2)
            let insert = try old.prepare(Self.sampleInsert)
            try insert.run(
                .blob([UInt8](repeating: 7, count: 16)), .integer(1), .integer(1), .integer(0), .integer(1),
                .integer(1), .integer(1), .integer(0))
            #expect(try opcodes(Self.sampleInsert, on: old).contains("OpenEphemeral"))
        }

        let store = try Store(directory: StoreDirectory(path: path))
        #expect(try store.appliedMigrations() == StoreSchema.migrations.map(\.name))
        #expect(try store.integrityCheck() == ["ok"])
        #expect(try store.connection.scalar("SELECT count(*) FROM samples WHERE lane = 1") == 1)
        #expect(!(try opcodes(Self.sampleInsert, on: store.connection).contains("OpenEphemeral")))
        for table in ["samples", "cursors", "workouts"] {
            let sql = try store.connection.prepare("SELECT sql FROM sqlite_master WHERE name = ?1")
            try sql.bind(.text(table))
            #expect(try sql.step())
            #expect(sql.text(0)?.contains("CHECK(lane = 0 OR lane = 1 OR lane = 2)") == true, "\(table)")
        }
        // The rule still holds: a lane outside 0...2 is refused, not skipped like a duplicate.
        let stray = try store.connection.prepare(Self.sampleInsert)
        #expect(throws: SQLiteError.self) {
            try stray.run(
                .blob([UInt8](repeating: 8, count: 16)), .integer(1), .integer(1), .integer(0), .integer(1),
                .integer(3), .integer(1), .integer(0))
        }
    }

    /// 0009: stored rows keep their row ids as their commit sequence numbers, and the counter
    /// starts above every row and above the upload mark, though the newest rows were deleted.
    @Test func storeFromBeforeTheCommitSequenceNumbersNewSamplesAboveTheMark() throws {
        let path = directory.child("store")
        do {
            let old = try oldStore(at: path, migrations: 8)
            let insert = try old.prepare(Self.sampleInsert)
            for byte in UInt8(1)...3 {
                try insert.run(
                    .blob([UInt8](repeating: byte, count: 16)), .integer(1), .integer(1), .integer(Int64(byte)),
                    .integer(Int64(byte)), .integer(1), .integer(1), .integer(0))
            }
            // Queued up to row 3, which was deleted since.
            try old.execute(
                "DELETE FROM samples WHERE rowid = 3; INSERT INTO upload_marks(name, position) VALUES ('samples', 3)")
        }

        let store = try Store(directory: StoreDirectory(path: path))
        #expect(try store.appliedMigrations() == StoreSchema.migrations.map(\.name))
        #expect(try store.connection.scalar("SELECT count(*) FROM samples WHERE commit_seq = rowid") == 2)
        #expect(try store.lastSampleSequence() == 3)
        try store.commit(
            CommitBatch(
                stream: "s", samples: [LanedSample(RecordFixtures.sample(index: 0), lane: .cold)], cursors: [.cold: 1]))
        let mark = try store.uploadMark(.sampleSequence)
        #expect(try store.samples(afterSequence: mark, limit: 10).map(\.sequence) == [4])
    }
}
