import Foundation
import HealthETLStore
import HealthETLTestSupport
import Testing

/// FIT files through the built binary: `import` finds a watch's folder and its zip by content,
/// the counts add up, importing the same files again adds nothing, a damaged file exits 3 with
/// the rest stored, and a run killed at any moment resumes to the store a clean run gives.
@Suite(.serialized) struct FITImportTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-fit-e2e")

    func json(_ result: CommandRunner.Result, exit: Int32 = 0) throws -> [String: Any] {
        #expect(result.exitCode == exit, "\(result.standardError)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    func export(_ name: String, days: Int) throws -> [String: Any] {
        try json(runner.run(["simulate", "--export", "fit", directory.child(name), "--days", String(days), "--json"]))
    }

    @Test func aWatchFolderImportsOnceAndTheCountsAddUp() throws {
        let written = try export("GARMIN", days: 4)
        let store = directory.child("store")
        let first = try json(runner.run(["--store", store, "import", directory.child("GARMIN"), "--json"]))
        #expect(first["source"] as? String == "fit")
        #expect((first["stream"] as? String)?.hasPrefix("fit:") == true)
        let accepted = first["accepted"] as? Int ?? 0
        #expect(accepted > 10_000)
        #expect(first["workouts"] as? Int == (written["sessions"] as? [Any])?.count)
        #expect(first["complete"] as? Bool == true)
        let outcomes = ["accepted", "flagged", "quarantined", "duplicates", "deleted_earlier"]
        #expect(outcomes.reduce(0) { $0 + (first[$1] as? Int ?? 0) } == first["records_read"] as? Int)

        let again = try json(runner.run(["--store", store, "import", directory.child("GARMIN"), "--json"]))
        #expect(again["records_read"] as? Int == 0, "the same files: the stream's cursor covers them")
        let fromStart = try json(
            runner.run(["--store", store, "import", directory.child("GARMIN"), "--from-start", "--json"]))
        #expect(fromStart["accepted"] as? Int == 0)
        #expect(fromStart["duplicates"] as? Int == first["records_read"] as? Int)

        // The same files in a zip are another stream, and nothing in them is new.
        _ = try export("garmin.zip", days: 4)
        let zipped = try json(runner.run(["--store", store, "import", directory.child("garmin.zip"), "--json"]))
        #expect(zipped["source"] as? String == "fit")
        #expect(zipped["accepted"] as? Int == 0)
    }

    @Test func aDamagedFileExitsThreeWithTheRestStored() throws {
        _ = try export("damaged", days: 2)
        let folder = directory.child("damaged")
        let activity = try #require(
            FileManager.default.subpaths(atPath: folder)?.first { $0.hasSuffix(".fit") && $0.contains("Monitor") })
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + activity)))
        bytes[bytes.count / 2] ^= 0x55
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + activity))
        let summary = try json(
            runner.run(["--store", directory.child("damaged-store"), "import", folder, "--json"]), exit: 3)
        #expect(summary["complete"] as? Bool == false)
        #expect((summary["problem"] as? String)?.contains("fails its CRC check") == true)
        #expect((summary["accepted"] as? Int ?? 0) > 1_000)
    }

    @Test func killedImportsResumeToTheCleanStore() throws {
        _ = try export("kill", days: 10)
        let folder = directory.child("kill")
        let clean = directory.child("clean")
        let cleanRun = try runner.run(["--store", clean, "import", folder, "--batch-size", "500"])
        #expect(cleanRun.exitCode == 0, "\(cleanRun.standardError)")
        let expected = try Store(directory: StoreDirectory(path: clean)).contentRows()
        #expect(expected.count > 30_000)
        let (kills, killed) = try KilledImportChain(runner: runner, directory: directory)
            .run(["import", folder, "--batch-size", "500"], times: 12, seed: 20_261_129, expected: expected)
        #expect(kills >= 3, "the import finished too fast to be killed mid-way; make the export larger")
        let final = try runner.run(["--store", killed, "import", folder, "--batch-size", "500"])
        #expect(final.exitCode == 0, "\(final.standardError)")
        #expect(try Store(directory: StoreDirectory(path: killed)).contentRows() == expected)
    }
}
