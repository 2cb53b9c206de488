import Foundation
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import Testing

@testable import HealthConnect

/// Opening a Health Connect export's database: read only, checked whole, schema found by name.
struct HealthConnectDatabaseTests {
    let directory = TemporaryDirectory("healthetl-hc-db")

    /// A database at user_version 14 built from the schema the research reconstructed from AOSP.
    func version14Database(named name: String = "health_connect_export.db", rows: Int = 0) throws -> String {
        let path = directory.child(name)
        let connection = try HealthConnectSchemaFile.create(
            at: path,
            then:
                "INSERT INTO application_info_table (row_id, package_name, app_name) VALUES (1, 'com.example.steps', 'Steps')"
        )
        try connection.execute("BEGIN")
        for row in 0..<rows {
            try connection.execute(
                """
                INSERT INTO steps_record_table (uuid, last_modified_time, app_info_id, start_time, start_zone_offset,
                  end_time, end_zone_offset, local_date, count)
                VALUES (randomblob(16), 0, 1, \(row * 60_000), 3600, \(row * 60_000 + 60_000), 3600, 0, \(row))
                """)
        }
        try connection.execute("COMMIT")
        return path
    }

    @Test func aVersion14DatabaseShowsItsTablesAndGeneratedColumns() throws {
        let database = try HealthConnectDatabase(path: try version14Database())
        let schema = try database.schema()
        #expect(schema.userVersion == 14)
        #expect(schema.hasTable("steps_record_table"))
        #expect(schema.hasTable("heart_rate_record_series_table"))
        #expect(schema.hasColumn("count", in: "steps_record_table"))
        let columns = try #require(schema.tables["steps_record_table"])
        // table_info would hide these: schema 10's local-time columns are generated.
        #expect(columns.first { $0.name == "local_date_time_start_time" }?.isGenerated == true)
        #expect(columns.first { $0.name == "count" }?.isGenerated == false)
        #expect(columns.first { $0.name == "uuid" }?.declaredType == "BLOB")
    }

    @Test func aFileThatIsNotSQLiteIsRefusedSayingWhatToDo() throws {
        let path = directory.child("not.db")
        _ = FileManager.default.createFile(atPath: path, contents: Data("PK\u{3}\u{4} a zip, not a database".utf8))
        #expect(throws: HealthConnectError.notADatabase(path: path)) { try HealthConnectDatabase(path: path) }
        #expect(HealthConnectError.notADatabase(path: path).description.contains("export again"))
    }

    @Test func aTruncatedCopyIsRefusedAsDamaged() throws {
        let path = try version14Database(rows: 5_000)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        do {
            _ = try HealthConnectDatabase(path: path)
            Issue.record("a truncated database was accepted")
        } catch let error as HealthConnectError {
            guard case .damaged = error else {
                Issue.record("not refused as damaged: \(error)")
                return
            }
        }
    }

    /// An export is someone else's file: reading it takes no lock and leaves nothing beside it,
    /// even when the file itself may not be written.
    @Test func readingWritesNothingAndNeedsNoWriteAccess() throws {
        let path = try version14Database(rows: 10)
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let database = try HealthConnectDatabase(path: path)
        #expect(try database.connection.scalar("SELECT count(*) FROM steps_record_table") == 10)
        #expect(throws: (any Error).self) { try database.connection.execute("DELETE FROM steps_record_table") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
    }

    /// An export is untrusted: its schema may only call harmless functions, no SQL can change
    /// it, and no string, statement, expression or call grows past the untrusted limits.
    @Test func theDatabaseIsOpenedDefensively() throws {
        let database = try HealthConnectDatabase(path: try version14Database(rows: 1))
        let connection = database.connection
        #expect(connection.isDefensive)
        #expect(try connection.scalar("PRAGMA trusted_schema") == 0)
        for (limit, value) in SQLiteConnection.untrustedLimits {
            #expect(connection.limit(limit) == value)
        }
        // A 20 MB string (printf stops at the limit and gives NULL), 150 levels of expression,
        // nine arguments: none is built.
        #expect(try connection.scalar("SELECT length(printf('%.*c', 20000000, 'x'))") == nil)
        #expect(throws: SQLiteError.self) { try connection.scalar("SELECT length(zeroblob(20000000))") }
        let deep = String(repeating: "(", count: 150) + "1" + String(repeating: ")", count: 150)
        #expect(throws: SQLiteError.self) { try connection.scalar("SELECT 1 + \(deep)") }
        #expect(throws: SQLiteError.self) { try connection.scalar("SELECT max(1, 2, 3, 4, 5, 6, 7, 8, 9)") }
    }

    @Test func aPathWithCharactersURIsGiveMeaningToOpens() throws {
        let path = try version14Database(named: "Health Connect ?#%20 copy.db")
        #expect(try HealthConnectDatabase(path: path).schema().hasTable("steps_record_table"))
    }
}
