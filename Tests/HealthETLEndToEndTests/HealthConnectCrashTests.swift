import Foundation
import HealthETLCore
import HealthETLStore
import HealthETLTestSupport
import Testing

/// A Health Connect import killed with SIGKILL at random moments, then run again, ends with
/// exactly the store a clean run gives, the store is consistent after every kill, and no
/// private copy of the database outlives the runs (a killed run's is removed by the next).
@Suite(.serialized) struct HealthConnectCrashTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-hc-kill")

    @Test func killedImportsResumeToTheCleanStoreAndLeaveNoCopy() throws {
        let export = directory.child("Health Connect.zip")
        let written = try runner.run([
            "simulate", "--export", "health-connect", export, "--days", "8", "--heart-rate-interval", "10",
        ])
        #expect(written.exitCode == 0, "\(written.standardError)")
        let temporary = directory.child("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { $1 }

        let clean = directory.child("clean")
        let cleanRun = try runner.run(["--store", clean, "import", export, "--batch-size", "500"])
        #expect(cleanRun.exitCode == 0, "\(cleanRun.standardError)")
        let expected = try Store(directory: StoreDirectory(path: clean)).contentRows()
        #expect(expected.count > 60_000)

        let (kills, killed) = try KilledImportChain(runner: runner, directory: directory, environment: environment)
            .run(["import", export, "--batch-size", "500"], times: 16, seed: 20_261_126, expected: expected)
        #expect(kills >= 5, "the import finished too fast to be killed mid-way; make the export larger")
        let final = try runner.run(["--store", killed, "import", export, "--batch-size", "500"])
        #expect(final.exitCode == 0, "\(final.standardError)")
        #expect(try Store(directory: StoreDirectory(path: killed)).contentRows() == expected)
        // A run killed while copying leaves its copy; the next run removes it.
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(left.isEmpty, "copies left behind: \(left)")
    }
}
