import Foundation
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
