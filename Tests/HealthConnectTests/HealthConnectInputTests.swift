import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLSQLite
import HealthETLStore
import HealthETLTestSupport
import HealthETLZip
import Testing

@testable import HealthConnect

/// Databases of every schema shape and damaged inputs, imported whole: each problem has a clear
/// reason (a warning, a quarantine reason or an error that says what to do), and nothing valid
/// is lost.
@Suite struct HealthConnectInputTests {
    let fixture = HealthConnectFixture()

    /// A weigh-in, a night with two stages and a step record, in the fixture's v14 database.
    static let rows = """
        INSERT INTO weight_record_table (uuid, last_modified_time, app_info_id, device_info_id, recording_method,
          time, zone_offset, local_date, weight)
          VALUES (X'000102030405060708090a0b0c0d0e0f', 1733040000000, 1, 1, 3, 1733039000000, 3600, 20058, 72400);
        INSERT INTO steps_record_table (uuid, last_modified_time, app_info_id, start_time, start_zone_offset,
          end_time, end_zone_offset, local_date, count)
          VALUES (X'100102030405060708090a0b0c0d0e0f', 1733040000000, 1, 1733036400000, 3600, 1733040000000, 3600,
            20058, 1200);
        INSERT INTO sleep_session_record_table (row_id, uuid, last_modified_time, app_info_id, start_time,
          start_zone_offset, end_time, end_zone_offset, local_date)
          VALUES (1, X'200102030405060708090a0b0c0d0e0f', 1733040000000, 1, 1733000000000, 3600, 1733003600000, 3600, 20058);
        INSERT INTO sleep_stages_table (parent_key, stage_start_time, stage_end_time, stage_type)
          VALUES (1, 1733000000000, 1733001800000, 4), (1, 1733001800000, 1733003600000, 5);
        """

    func importing(_ path: String) throws -> ImportSummary {
        let store = try Store(
            directory: StoreDirectory(path: fixture.directory.child("store-\(UInt32.random(in: 0...UInt32.max))")))
        return try ArchiveImport().run(path, into: store, catalog: try MetricCatalog.bundled())
    }

    func database(_ inserts: String, then change: String = "") throws -> String {
        let (database, _) = try fixture.database(Self.rows + inserts)
        let path = database.path
        if !change.isEmpty { try SQLiteConnection(path: path).execute(change) }
        return path
    }

    @Test func aVersion14DatabaseImportsWholeWithTheManualWeighInRankedFirst() throws {
        let summary = try importing(try database(""))
        #expect(summary.complete)
        #expect(summary.accepted == 4)
        #expect(summary.quarantined == 0)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
    }

    @Test(arguments: [
        (
            "version 9: no later tables, no generated columns", 9,
            """
            DROP TABLE mindfulness_session_record_table; DROP TABLE skin_temperature_delta_table;
            DROP TABLE skin_temperature_record_table; DROP TABLE planned_exercise_session_goals_table;
            DROP TABLE planned_exercise_session_steps_table; DROP TABLE planned_exercise_session_blocks_table;
            ALTER TABLE exercise_session_record_table DROP COLUMN planned_exercise_session_id;
            DROP TABLE planned_exercise_session_record_table;
            ALTER TABLE weight_record_table DROP COLUMN local_date_time;
            ALTER TABLE steps_record_table DROP COLUMN local_date_time_start_time;
            ALTER TABLE steps_record_table DROP COLUMN local_date_time_end_time;
            """
        ),
        ("version 10", 10, "DROP TABLE mindfulness_session_record_table; DROP TABLE skin_temperature_delta_table;"),
        ("version 12", 12, "DROP TABLE mindfulness_session_record_table;"),
        ("version 18", 18, ""),
    ])
    func everyKnownVersionReadsWithoutWarnings(_ name: String, _ version: Int, _ change: String) throws {
        let summary = try importing(try database("", then: change + "PRAGMA user_version = \(version);"))
        #expect(summary.accepted == 4, "\(name)")
        #expect(summary.warnings.isEmpty, "\(name): \(summary.warnings)")
    }

    /// A phone at schema 16 has the activity intensity table as Android builds it (the intensity
    /// in `type`): every row is stored, none quarantined.
    @Test func aVersion16ActivityIntensityTableIsStoredWhole() throws {
        let path = try database(
            HealthConnectFixture.activityIntensityTable + """
                INSERT INTO activity_intensity_record_table (uuid, last_modified_time, app_info_id, device_info_id,
                  start_time, start_zone_offset, end_time, end_zone_offset, local_date, type)
                VALUES (X'400102030405060708090a0b0c0d0e0f', 1733040000000, 1, 1, 1733036400000, 3600, 1733037000000,
                    3600, 20058, 0),
                  (X'410102030405060708090a0b0c0d0e0f', 1733040000000, 1, 1, 1733037000000, 3600, 1733037600000,
                    3600, 20058, 1);
                """,
            then: "PRAGMA user_version = 16;")
        let summary = try importing(path)
        #expect(summary.accepted == 6)
        #expect(summary.quarantined == 0, "\(summary.quarantinedByReason)")
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
    }

    @Test func anUpgradedLayoutWithItsValueColumnLastReadsByName() throws {
        // An upgraded phone's added columns follow the original ones (ALTER TABLE ADD COLUMN).
        let path = try database(
            "",
            then: """
                CREATE TABLE moved AS SELECT row_id, uuid, last_modified_time, client_record_id, client_record_version,
                  device_info_id, app_info_id, recording_method, dedupe_hash, time, zone_offset, local_date, weight
                  FROM weight_record_table;
                DROP TABLE weight_record_table;
                CREATE TABLE weight_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE,
                  last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER,
                  app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE, time INTEGER,
                  zone_offset INTEGER, local_date INTEGER);
                ALTER TABLE weight_record_table ADD COLUMN local_date_time INTEGER AS (time + 1000 * zone_offset);
                ALTER TABLE weight_record_table ADD COLUMN weight REAL;
                INSERT INTO weight_record_table (row_id, uuid, last_modified_time, client_record_id,
                  client_record_version, device_info_id, app_info_id, recording_method, dedupe_hash, time, zone_offset,
                  local_date, weight) SELECT * FROM moved;
                DROP TABLE moved;
                """)
        let summary = try importing(path)
        #expect(summary.accepted == 4)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
    }

    @Test func aNewerModuleWarnsOnceOfWhatItAddedAndLosesNothing() throws {
        let path = try database(
            "",
            then: """
                CREATE TABLE medical_resource_table (row_id INTEGER PRIMARY KEY, data TEXT);
                ALTER TABLE weight_record_table ADD COLUMN measurement_context INTEGER;
                PRAGMA user_version = 21;
                """)
        let summary = try importing(path)
        #expect(summary.accepted == 4)
        #expect(summary.warnings["unknown_table:medical_resource_table"] == 1)
        #expect(summary.warnings["unknown_column:weight_record_table.measurement_context"] == 1)
    }

    @Test func aTableWithoutItsValueColumnHasItsRowsQuarantined() throws {
        let path = try database("", then: "ALTER TABLE weight_record_table DROP COLUMN weight;")
        let summary = try importing(path)
        #expect(summary.accepted == 3)
        #expect(summary.quarantinedByReason == ["missing_value": 1])
        #expect(summary.warnings["missing_value_columns:weight_record_table"] == 1)
        #expect(summary.recordsRead == summary.accepted + summary.quarantined)
    }

    @Test func badRowsAreQuarantinedWithTheirReasonAndTheRestKept() throws {
        let summary = try importing(
            try database(
                """
                INSERT INTO weight_record_table (uuid, app_info_id, time, zone_offset, weight)
                  VALUES (X'300102030405060708090a0b0c0d0e0f', 1, 1733039100000, 3600, 'heavy');
                INSERT INTO weight_record_table (uuid, app_info_id, time, zone_offset, weight)
                  VALUES (X'310102030405060708090a0b0c0d0e0f', 1, 1733039200000, 72000, 72000);
                INSERT INTO active_calories_burned_record_table (uuid, app_info_id, start_time, start_zone_offset,
                  end_time, end_zone_offset, energy)
                  VALUES (X'320102030405060708090a0b0c0d0e0f', 1, 1733036400000, 3600, 1733040000000, 3600, 1e15);
                INSERT INTO weight_record_table (uuid, app_info_id, time, zone_offset, weight)
                  VALUES (X'0102', 1, 1733039300000, 3600, 72100);
                """))
        #expect(summary.accepted == 5, "the short uuid's weigh-in is kept")
        #expect(summary.quarantinedByReason == ["unparseable_value": 1, "utc_offset_out_of_range": 1])
        // 1e15 calories is 1e12 kcal: kept, flagged as implausible (the catalog's hard limit for
        // energy is only its minimum).
        #expect(summary.flagged == 1)
        #expect(summary.flaggedByReason.count == 1, "\(summary.flaggedByReason)")
        #expect(summary.warnings["uuid_not_16_bytes"] == 1)
        #expect(summary.recordsRead == summary.accepted + summary.flagged + summary.quarantined)
    }

    @Test func aZipWithAnotherEntryIsRefusedNamingWhatItHolds() throws {
        let path = fixture.directory.child("other.zip")
        let writer = try ZipWriter(path: path, modified: .dosEpoch)
        try writer.beginEntry("notes.txt")
        try writer.write(Array("not a database".utf8))
        try writer.endEntry()
        _ = try writer.finish()
        guard case .notRecognized(let reason) = HealthConnectAdapter().recognize(SourceInput(path: path)) else {
            Issue.record("a zip of notes was recognized")
            return
        }
        #expect(reason.contains("notes.txt"))
        let refusal = #expect(throws: (any Error).self) { try self.importing(path) }
        #expect("\(refusal.map { "\($0)" } ?? "")".contains("no health_connect_export.db; it holds notes.txt"))
    }

    @Test func aZipBombIsRefusedSayingSo() throws {
        // One deflated block that declares a gigabyte: a ratio only bombs reach.
        var bomb = ZipFixtureBuilder()
        bomb.addCompressed(
            HealthConnectExportFile.entryName, compressed: [0x03, 0x00], crc32: 0, uncompressedSize: 1 << 30)
        let path = fixture.directory.child("bomb.zip")
        try bomb.write(to: path)
        let refusal = #expect(throws: (any Error).self) { try self.importing(path) }
        let message = refusal.map { "\($0)" } ?? ""
        #expect(message.contains("zip bombs"), "\(message)")
        #expect(!message.contains("no health_connect_export.db"), "\(message)")
    }

    @Test func aTruncatedZipIsRefusedAsDamaged() throws {
        let whole = try database("")
        let zip = fixture.directory.child("whole.zip")
        let writer = try ZipWriter(path: zip, modified: .dosEpoch)
        try writer.beginEntry(HealthConnectExportFile.entryName)
        try writer.write(Array(try Data(contentsOf: URL(fileURLWithPath: whole))))
        try writer.endEntry()
        _ = try writer.finish()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
        let cut = fixture.directory.child("cut.zip")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(throws: (any Error).self) { try HealthConnectExportFile(path: cut) }
        #expect(throws: (any Error).self) { try self.importing(cut) }
    }
}
