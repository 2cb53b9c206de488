import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLSQLite
import HealthETLStore
import HealthETLTestSupport
import Testing

@testable import HealthConnect

/// A database whose schema makes SQLite compute the file's own SQL — a generated column, an
/// index on an expression, a partial index — is imported without any of it running: the table
/// is refused with the reason in the report, everything else is read. Each hostile expression
/// builds a 1 MB string and then fails (`abs` of the smallest integer overflows), so a single
/// evaluation anywhere in the check or the reads would fail the import.
private let costly = "length(printf('%.*c', 1000000, 'x')) + abs(-9223372036854775807 - 1)"
/// The same inside an SQL string literal.
private let costlyText = costly.replacingOccurrences(of: "'", with: "''")

@Suite struct HealthConnectHostileSchemaTests {
    let fixture = HealthConnectFixture()

    func importing(_ path: String) throws -> ImportSummary {
        let store = try Store(
            directory: StoreDirectory(path: fixture.directory.child("store-\(UInt32.random(in: 0...UInt32.max))")))
        return try ArchiveImport().run(path, into: store, catalog: try MetricCatalog.bundled())
    }

    /// The four records of `HealthConnectInputTests.rows`, then `change` (which may rewrite the
    /// schema's text, as a hand-made file can).
    func database(then change: String) throws -> String {
        let (database, _) = try fixture.database(HealthConnectInputTests.rows)
        let writer = try SQLiteConnection(path: database.path)
        try writer.execute("PRAGMA writable_schema = ON;\n" + change + "\nPRAGMA writable_schema = OFF;")
        return database.path
    }

    @Test(arguments: [
        (
            "a generated column of the file's own", "weight_record_table",
            "ALTER TABLE weight_record_table ADD COLUMN evil TEXT AS (\(costly));", "column evil is computed", 3
        ),
        (
            "Android's local-time column with another expression", "weight_record_table",
            """
            UPDATE sqlite_schema SET sql = replace(sql, '(time + 1000 * zone_offset)', '(time + \(costlyText))')
              WHERE name = 'weight_record_table';
            """,
            "column local_date_time is computed", 3
        ),
        (
            "an index on an expression", "weight_record_table",
            """
            CREATE INDEX evil ON weight_record_table(length(printf('%.*c', 1000000, 'x')));
            UPDATE sqlite_schema SET sql = 'CREATE INDEX evil ON weight_record_table(\(costlyText))' WHERE name = 'evil';
            """,
            "index evil is on an expression", 3
        ),
        (
            "a partial index", "steps_record_table",
            """
            CREATE INDEX evil ON steps_record_table(count) WHERE count > 0;
            UPDATE sqlite_schema SET sql = 'CREATE INDEX evil ON steps_record_table(count) WHERE \(costlyText) > 0'
              WHERE name = 'evil';
            """,
            "index evil is partial", 3
        ),
        (
            "an index on Android's generated column", "steps_record_table",
            "CREATE INDEX evil ON steps_record_table(local_date_time_start_time);",
            "index evil is on the generated column local_date_time_start_time", 3
        ),
        (
            "a record table whose series is read through it", "sleep_session_record_table",
            "ALTER TABLE sleep_session_record_table ADD COLUMN evil TEXT AS (\(costly));", "column evil is computed", 2
        ),
        (
            "a table nobody maps", "evil_table",
            """
            CREATE TABLE evil_table (a INTEGER); INSERT INTO evil_table (a) VALUES (1);
            ALTER TABLE evil_table ADD COLUMN b TEXT AS (\(costly));
            """,
            "column b is computed", 4
        ),
    ])
    func aTableWhoseSchemaComputesIsRefusedUnrun(
        _ name: String, _ table: String, _ change: String, _ reason: String, _ accepted: Int
    ) throws {
        let summary = try importing(try database(then: change))
        #expect(summary.complete, "\(name)")
        #expect(summary.accepted == accepted, "\(name)")
        #expect(summary.quarantined == 0, "\(name)")
        let refusal = summary.warnings.keys.first { $0.hasPrefix("refused_table:\(table) (") }
        #expect(refusal?.contains(reason) == true, "\(name): \(summary.warnings)")
        if table == "sleep_session_record_table" {
            #expect(
                summary.warnings[
                    "refused_table:sleep_stages_table (its parent table sleep_session_record_table is refused)"]
                    == 1)
        }
    }

    @Test func aVirtualTableInPlaceOfARecordTableIsRefused() throws {
        let summary = try importing(
            try database(
                then: "DROP TABLE weight_record_table; CREATE VIRTUAL TABLE weight_record_table USING fts5(weight);"))
        #expect(summary.accepted == 3)
        #expect(summary.warnings.keys.contains { $0.hasPrefix("refused_table:weight_record_table (a virtual table") })
    }

    /// Android's own local-time columns, in both the form a fresh database declares and the one
    /// an upgraded phone's ALTER TABLE leaves, are SQL of the file too: they are kept, as
    /// Android's expressions.
    @Test func androidsOwnGeneratedColumnsAreKeptInBothForms() throws {
        let summary = try importing(
            try database(
                then: """
                    ALTER TABLE weight_record_table DROP COLUMN local_date_time;
                    ALTER TABLE weight_record_table ADD COLUMN local_date_time INTEGER GENERATED ALWAYS AS
                      (time + 1000 * zone_offset);
                    """))
        #expect(summary.accepted == 4)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
    }

    /// Views, triggers and CHECK constraints are never run: the reader selects from tables only,
    /// a read-only, query-only connection fires no trigger, and SQLite leaves a CHECK constraint
    /// out of a read-only database's schema altogether (so its check cannot run one either).
    @Test func viewsTriggersAndCheckConstraintsAreIgnored() throws {
        let summary = try importing(
            try database(
                then: """
                    CREATE VIEW evil_view AS SELECT \(costly) AS x;
                    CREATE VIEW weight_view AS SELECT *, \(costly) AS x FROM weight_record_table;
                    CREATE TRIGGER evil_trigger AFTER INSERT ON weight_record_table BEGIN SELECT \(costly); END;
                    UPDATE sqlite_schema SET sql = replace(sql, 'weight REAL', 'weight REAL CHECK (weight + \(costlyText) > 0)')
                      WHERE name = 'weight_record_table';
                    """))
        #expect(summary.accepted == 4)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
    }
}
