import Foundation
import HealthETLStore
import HealthETLTestSupport
import Testing

/// `healthetl simulate`, run as a user runs it: deterministic histories, live runs that survive
/// SIGKILL and stop cleanly on SIGTERM, and exports the import reads back.
@Suite(.serialized) struct SimulateCommandTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-simulate")

    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A lane's counts (its nested reason tables left out).
    func lane(_ report: [String: Any], _ name: String) -> [String: Int] {
        let tally = (report["lanes"] as? [String: Any])?[name] as? [String: Any] ?? [:]
        return tally.compactMapValues { $0 as? Int }
    }

    @Test func theSameSeedTwiceGivesTheSameStoreWithEveryLane() throws {
        let arguments = ["simulate", "--days", "30", "--seed", "1", "--origin", "2026-01-01", "--json"]
        let first = try runner.run(["--store", directory.child("a")] + arguments)
        #expect(first.exitCode == 0, "\(first.standardError)")
        let second = try runner.run(["--store", directory.child("b")] + arguments)
        #expect(second.exitCode == 0, "\(second.standardError)")
        let a = try Store(directory: StoreDirectory(path: directory.child("a")))
        let b = try Store(directory: StoreDirectory(path: directory.child("b")))
        #expect(try a.contentRows() == b.contentRows())

        let report = try json(first.standardOutput)
        #expect(lane(report, "hot")["accepted", default: 0] > 1_000)
        #expect(lane(report, "cold")["accepted", default: 0] > 10_000)
        // 120 changes; now and then two pick the same record.
        #expect(lane(report, "change")["tombstones", default: 0] > 110)
        #expect(try a.status().tombstones.total == lane(report, "change")["tombstones", default: 0])

        let status = try json(try runner.run(["--store", directory.child("a"), "status", "--json"]).standardOutput)
        let cursors = try #require(status["cursors"] as? [[String: Any]])
        let lanes = Set(
            cursors.filter { $0["stream"] as? String == "synthetic:seed-1:person-1" }.compactMap {
                $0["lane"] as? String
            })
        #expect(lanes == ["hot", "cold", "change"])

        // Again into the same store: everything is there already.
        let again = try json(try runner.run(["--store", directory.child("a")] + arguments).standardOutput)
        #expect(["hot", "cold", "change"].allSatisfy { lane(again, $0)["accepted", default: -1] == 0 })
        #expect(try a.contentRows() == b.contentRows())
    }

    @Test func aFollowRunKilledAndRestartedEndsLikeAnUninterruptedOne() throws {
        let arguments = [
            "simulate", "--follow", "--days", "4", "--seed", "2", "--origin", "2026-03-01T12:00:00Z", "--until",
            "2026-03-03T12:00:00Z", "--speed", "40000", "--changes-per-day", "24", "--late", "0.05", "--batch-size",
            "300",
        ]
        let clean = try runner.run(["--store", directory.child("clean")] + arguments)
        #expect(clean.exitCode == 0, "\(clean.standardError)")
        let expected = try Store(directory: StoreDirectory(path: directory.child("clean"))).contentRows()

        let killed = directory.child("killed")
        var random = SeededGenerator(seed: 4)
        var kills = 0
        for _ in 0..<6 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: runner.executable)
            process.arguments = ["--store", killed] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(200_000 + random.next() % 1_200_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            #expect(try Store(directory: StoreDirectory(path: killed)).integrityCheck() == ["ok"])
        }
        #expect(kills >= 2, "the run finished before it could be killed; slow the clock down")
        let final = try runner.run(["--store", killed] + arguments)
        #expect(final.exitCode == 0, "\(final.standardError)")
        #expect(try Store(directory: StoreDirectory(path: killed)).contentRows() == expected)
    }

    @Test func sigtermStopsALiveRunWithItsCursorsCommitted() throws {
        let store = directory.child("live")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runner.executable)
        process.arguments = ["--store", store, "simulate", "--follow", "--days", "2", "--speed", "600", "--json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(1_500_000)
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let report = try json(String(decoding: data, as: UTF8.self))
        #expect(report["interrupted"] as? Bool == true)
        let reopened = try Store(directory: StoreDirectory(path: store))
        #expect(try reopened.integrityCheck() == ["ok"])
        let lanes = Set(try reopened.cursors().map(\.lane))
        #expect(lanes.contains(.hot) && lanes.contains(.cold))
    }

    @Test func optionsThatContradictAStoredStreamAreRefused() throws {
        let store = directory.child("settled")
        #expect(try runner.run(["--store", store, "simulate", "--days", "3", "--origin", "2026-01-01"]).exitCode == 0)
        let changed = try runner.run(["--store", store, "simulate", "--days", "5"])
        #expect(changed.exitCode == 2)
        #expect(changed.standardError.contains("--days 3"))
        #expect(try runner.run(["--store", store, "simulate"]).exitCode == 0)
    }

    @Test func samplesPerDaySizesTheDaysAndStaysWithTheStream() throws {
        let store = directory.child("dense")
        let arguments = [
            "--store", store, "simulate", "--days", "4", "--origin", "2026-01-01", "--changes-per-day", "0",
        ]
        let natural = try json(
            try runner.run(["--store", directory.child("natural")] + arguments.dropFirst(2) + ["--json"]).standardOutput
        )
        let dense = try json(try runner.run(arguments + ["--samples-per-day", "6000", "--json"]).standardOutput)
        let records = { (report: [String: Any]) in
            ["hot", "cold"].reduce(0) { $0 + lane(report, $1)["records", default: 0] }
        }
        // The same span of days at about 6,000 records a day instead of about 990 (how close to
        // the size asked for, over many days and seeds, is SampleDensityTests' concern).
        let ratio = Double(records(dense)) / Double(records(natural))
        #expect((4.5...9).contains(ratio), "\(records(dense)) records against \(records(natural))")

        let changed = try runner.run(arguments + ["--samples-per-day", "2000"])
        #expect(changed.exitCode == 2)
        #expect(changed.standardError.contains("--samples-per-day 6000"))
        #expect(try runner.run(arguments).exitCode == 0)
        let outside = try runner.run(["--store", directory.child("outside"), "simulate", "--samples-per-day", "100"])
        #expect(outside.exitCode == 2)
        #expect(outside.standardError.contains("between 800 and 40000"))
    }

    @Test func anAppleHealthExportImportsWithItsRecordCount() throws {
        let export = directory.child("generated.zip")
        let written = try runner.run([
            "simulate", "--export", "apple-health", export, "--records", "2000", "--seed", "5",
        ])
        #expect(written.exitCode == 0, "\(written.standardError)")
        let imported = try runner.run(["--store", directory.child("imported"), "import", export, "--json"])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        let summary = try json(imported.standardOutput)
        #expect(summary["records_read"] as? Int == 2000)
        #expect(summary["complete"] as? Bool == true)
    }
}
