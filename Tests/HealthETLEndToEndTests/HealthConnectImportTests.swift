import Foundation
import HealthETLSQLite
import HealthETLTestSupport
import Testing

/// Health Connect exports through the built binary, as a user runs them: two snapshots of one
/// phone written by `simulate --export health-connect`, imported in turn; the second deletes and
/// edits exactly what changed, a re-import adds nothing, and `status` shows the streams.
@Suite(.serialized) struct HealthConnectImportTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-hc-e2e")

    func json(_ result: CommandRunner.Result) throws -> [String: Any] {
        #expect(result.exitCode == 0, "\(result.standardError)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    @Test func twoSnapshotsOfOnePhoneImportAsDeletionsAndEdits() throws {
        let first = directory.child("Health Connect.zip")
        let second = directory.child("next.zip")
        let store = directory.child("store")
        _ = try json(runner.run(["simulate", "--export", "health-connect", first, "--days", "4", "--json"]))
        let changes = try json(
            runner.run(["simulate", "--export", "health-connect", second, "--previous", first, "--json"]))
        #expect((changes["deleted"] as? Int ?? 0) > 0)
        #expect((changes["edited"] as? Int ?? 0) > 0)

        let imported = try json(runner.run(["--store", store, "import", first, "--json"]))
        #expect(imported["source"] as? String == "health_connect")
        #expect(imported["quarantined"] as? Int == 0)
        #expect((imported["accepted"] as? Int ?? 0) > 0)
        let next = try json(runner.run(["--store", store, "import", second, "--json"]))
        #expect((next["tombstones"] as? Int ?? 0) > 0)
        #expect(next["accepted"] as? Int == changes["edited"] as? Int, "an edited weigh-in is a new value")
        let again = try json(runner.run(["--store", store, "import", second, "--json"]))
        #expect(again["accepted"] as? Int == 0)
        #expect(again["tombstones"] as? Int == 0)

        let status = try json(runner.run(["--store", store, "status", "--json"]))
        let cursors = try #require(status["cursors"] as? [[String: Any]])
        #expect(cursors.contains { ($0["stream"] as? String ?? "").hasPrefix("health_connect:export-") })
    }

    /// Times, row ids and modification times at the ends of `Int64` (each of which once ended the
    /// process with SIGILL and lost the whole import): the records they make impossible are
    /// quarantined with a reason, the rest are stored, and a second run adds nothing.
    @Test func absurdValuesAreQuarantinedWithAReasonAndTheRestStored() throws {
        let (max, min) = (Int64.max, Int64.min)
        let path = directory.child("absurd/health_connect_export.db")
        try FileManager.default.createDirectory(
            atPath: directory.child("absurd"), withIntermediateDirectories: true)
        try HealthConnectSchemaFile.create(
            at: path,
            then: """
                INSERT INTO application_info_table (row_id, package_name, app_name) VALUES (1, 'com.example.app', 'App');
                INSERT INTO steps_record_table (row_id, uuid, last_modified_time, app_info_id, start_time,
                  start_zone_offset, end_time, end_zone_offset, count) VALUES
                  (1, randomblob(16), 1700000000000, 1, 1700000000000, 3600, 1700000600000, 3600, 500),
                  (2, randomblob(16), 1700000000000, 1, \(max), 0, \(min), 0, 5),
                  (\(max - 20), randomblob(16), 1700000000000, 1, 1700000700000, 3600, 1700000760000, 3600, 7);
                INSERT INTO weight_record_table (row_id, uuid, last_modified_time, app_info_id, time, zone_offset, weight)
                  VALUES (1, randomblob(16), \(max), 1, 1700000000000, 3600, 70000),
                  (2, randomblob(16), 1700000000000, 1, \(max), 3600, 70500),
                  (3, randomblob(16), 1700000000000, 1, \(min), -3600, 70600),
                  (\(max - 10), randomblob(16), 1700000000000, 1, 1700000100000, 3600, 71000);
                INSERT INTO exercise_session_record_table (row_id, uuid, app_info_id, start_time, start_zone_offset,
                  end_time, end_zone_offset, exercise_type) VALUES (1, randomblob(16), 1, \(max), 3600, \(min), 3600, 8);
                """)
        let store = directory.child("absurd-store")
        let imported = try json(runner.run(["--store", store, "import", path, "--source", "health_connect", "--json"]))
        #expect(imported["complete"] as? Bool == true)
        // Three steps, two weights and the stored ones: the row ids near 2^63 included.
        #expect(imported["accepted"] as? Int == 4)
        #expect(imported["quarantined"] as? Int == 4)
        let reasons = try #require(imported["quarantined_by_reason"] as? [String: Int])
        #expect(reasons == ["end_before_start": 2, "date_out_of_range": 2])
        #expect(imported["workouts"] as? Int == 0)
        let warnings = try #require(imported["warnings"] as? [String: Int])
        #expect(warnings["last_modified_time_out_of_range:weight_record_table"] == 1)
        #expect(warnings["rows_beyond_cursor_line:steps_record_table"] == 1)
        #expect(warnings["rows_beyond_cursor_line:weight_record_table"] == 1)
        // The export is dated by a believable modification time, not by year 292278994.
        let stream = try #require(imported["stream"] as? String)
        #expect(!stream.contains("292278994"), "\(stream)")
        #expect(warnings["export_date_in_future"] == nil)

        let again = try json(runner.run(["--store", store, "import", path, "--source", "health_connect", "--json"]))
        #expect(again["accepted"] as? Int == 0)
    }

    @Test func aFileThatIsNoExportIsRefusedSayingWhy() throws {
        let path = directory.child("health_connect_export.db")
        try Data("SQLite format 2 and nothing else".utf8).write(to: URL(fileURLWithPath: path))
        let result = try runner.run([
            "--store", directory.child("refused"), "import", path, "--source", "health_connect",
        ])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("not a Health Connect database"))
    }
}
