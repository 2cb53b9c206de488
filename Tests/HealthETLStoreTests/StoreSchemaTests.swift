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
        #expect(try store.samples(afterSequence: 0, limit: 10).map(\.sequence) == [1, 2])
        #expect(try store.lastSampleSequence() == 3)
        try store.commit(
            CommitBatch(
                stream: "s", samples: [LanedSample(RecordFixtures.sample(index: 0), lane: .cold)], cursors: [.cold: 1]))
        let mark = try store.uploadMark(.sampleSequence)
        #expect(try store.samples(afterSequence: mark, limit: 10).map(\.sequence) == [4])
    }

    /// 0011: a store 0009 numbered, where SQLite gave rows committed after the newest were deleted
    /// row ids below their sequence numbers, and one number's row id is another row's. The rows
    /// take their sequence numbers as row ids; uploads go on from the mark in the same order and
    /// reach every live sample, and the next commit is numbered above the counter.
    @Test func storeWithRowIDsApartFromTheCommitSequenceKeepsUploadOrder() throws {
        let path = directory.child("store")
        // (row id, sequence number, day) as 0009 and 0010 left them: sequence 3 and 6 were deleted.
        let rows: [(row: Int64, sequence: Int64, day: Int64)] = [(1, 1, 1), (2, 2, 2), (3, 4, 3), (4, 5, 4), (5, 7, 5)]
        do {
            let old = try oldStore(at: path, migrations: 10)
            let insert = try old.prepare(
                """
                INSERT INTO samples(rowid, commit_seq, id, metric_id, source_id, start_ms, end_ms, lane, stream_id,
                    committed_ms)
                VALUES (?1, ?2, ?3, 1, 1, ?4, ?4, 1, 1, 0)
                """)
            for row in rows {
                try insert.run(
                    .integer(row.row), .integer(row.sequence), .blob([UInt8](repeating: UInt8(row.day), count: 16)),
                    .integer(row.day * 86_400_000))
            }
            try old.execute(
                """
                UPDATE sequences SET value = 7 WHERE name = 'sample_commit';
                INSERT INTO upload_marks(name, position) VALUES ('samples', 4);
                """)
        }

        let store = try Store(directory: StoreDirectory(path: path))
        #expect(try store.appliedMigrations() == StoreSchema.migrations.map(\.name))
        #expect(try store.integrityCheck() == ["ok"])
        let columns = try store.connection.prepare("SELECT name FROM pragma_table_info('samples')")
        var names: [String] = []
        while try columns.step() { names.append(columns.text(0) ?? "") }
        #expect(!names.contains("commit_seq"))

        let day = { (sample: Sample) in sample.start.millisecondsSinceEpoch / 86_400_000 }
        let pending = try store.samples(afterSequence: try store.uploadMark(.sampleSequence), limit: 10)
        #expect(pending.map(\.sequence) == [5, 7])
        #expect(pending.map { day($0.sample) } == [4, 5])
        // Page by page as the uploader reads, from the start: every live sample once, in order.
        var sent: [(sequence: Int64, sample: Sample)] = []
        while true {
            let page = try store.samples(afterSequence: sent.last?.sequence ?? 0, limit: 2)
            if page.isEmpty { break }
            sent += page
        }
        #expect(sent.map(\.sequence) == rows.map(\.sequence))
        #expect(sent.map { day($0.sample) } == rows.map(\.day))

        try store.commit(
            CommitBatch(
                stream: "s", samples: [LanedSample(RecordFixtures.sample(index: 0), lane: .cold)], cursors: [.cold: 1]))
        #expect(try store.lastSampleSequence() == 8)
        #expect(try store.samples(afterSequence: 7, limit: 10).map(\.sequence) == [8])
    }

    /// The commit gives each sample its row id: one taken already (a counter set back by hand) is
    /// an error that writes nothing, never a sample skipped as if it were a duplicate.
    @Test func aRowIDTakenAlreadyFailsTheCommit() throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")))
        let batch = { (indexes: Range<Int>, position: Int64) in
            CommitBatch(
                stream: "s", samples: indexes.map { LanedSample(RecordFixtures.sample(index: $0), lane: .cold) },
                cursors: [.cold: position])
        }
        try store.commit(batch(0..<2, 1))
        try store.connection.execute("UPDATE sequences SET value = 1 WHERE name = 'sample_commit'")
        #expect(throws: SQLiteError.self) { try store.commit(batch(2..<3, 2)) }
        #expect(try store.connection.scalar("SELECT count(*) FROM samples") == 2)
        #expect(try store.cursor(stream: "s", lane: .cold) == 1)
    }

    /// 0014: series kept by their samples' content ids move to the samples' row ids. A series
    /// whose sample is gone (nothing could reach it) goes with the old table, and a sample stored
    /// after the migration keeps its series by its own row id.
    @Test func storeWithSeriesByContentIDKeysThemByRowID() throws {
        let path = directory.child("store")
        let id = { (byte: UInt8) in SQLiteValue.blob([UInt8](repeating: byte, count: 16)) }
        do {
            let old = try oldStore(at: path, migrations: 13)
            let insert = try old.prepare(
                """
                INSERT INTO samples(rowid, id, metric_id, source_id, start_ms, end_ms, lane, stream_id, committed_ms)
                VALUES (?1, ?2, 1, 1, ?1, ?1, 1, 1, 0)
                """)
            for byte in UInt8(1)...3 { try insert.run(.integer(Int64(byte) * 10), id(byte)) }
            try old.execute("UPDATE sequences SET value = 30 WHERE name = 'sample_commit'")
            let series = try old.prepare("INSERT INTO sample_series(sample_id, points) VALUES (?1, ?2)")
            try series.run(id(3), .text("[[3,61]]"))
            try series.run(id(2), .text("[[2,60]]"))
            try series.run(id(9), .text("[[9,62]]"))
        }

        let store = try Store(directory: StoreDirectory(path: path))
        #expect(try store.appliedMigrations() == StoreSchema.migrations.map(\.name))
        #expect(try store.integrityCheck() == ["ok"])
        var sample = RecordFixtures.sample(index: 0)
        sample.series = [SeriesPoint(instant: sample.start, value: 72)]
        try store.commit(CommitBatch(stream: "s", samples: [LanedSample(sample, lane: .cold)], cursors: [.cold: 1]))

        let rows = try store.connection.prepare("SELECT sample_rowid, points FROM sample_series ORDER BY 1")
        var stored: [String] = []
        while try rows.step() { stored.append("\(rows.int64(0)) \(rows.text(1) ?? "")") }
        #expect(stored.count == 3)
        #expect(Array(stored.prefix(2)) == ["20 [[2,60]]", "30 [[3,61]]"])
        #expect(stored.last?.hasPrefix("31 [[") == true)
        #expect(try store.contentRows().filter { $0.hasSuffix("|[[2,60]]") }.count == 1)
    }
}
