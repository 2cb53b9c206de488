import Foundation
import HealthETLCore
import HealthETLStore
import HealthETLTestSupport
import Testing

/// R1: an import killed with SIGKILL at random moments, then run again, ends with exactly the
/// store a clean run gives, and the store is consistent after every kill.
@Suite(.serialized) struct CrashResumeTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-kill")

    @Test func killedImportsResumeToTheCleanStore() throws {
        var builder = ExportXMLBuilder()
        builder.addHeartRates(0..<30_000)
        builder.add(
            """
            <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Health" startDate="2024-03-02 08:00:00 +0100" endDate="2024-03-02 08:00:00 +0100">
              <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Health" unit="mmHg" startDate="2024-03-02 08:00:00 +0100" endDate="2024-03-02 08:00:00 +0100" value="121"/>
              <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Health" unit="mmHg" startDate="2024-03-02 08:00:00 +0100" endDate="2024-03-02 08:00:00 +0100" value="79"/>
            </Correlation>
            <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Simon’s Apple Watch" startDate="2024-03-02 07:00:00 +0100" endDate="2024-03-02 07:30:00 +0100">
              <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-03-02 07:10:00 +0100"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-03-02 07:00:00 +0100" endDate="2024-03-02 07:30:00 +0100" sum="310" unit="kcal"/>
            </Workout>
            <Record type="HKQuantityTypeIdentifierMadeUpByATest" sourceName="Health" unit="count" startDate="2024-03-02 08:00:00 +0100" endDate="2024-03-02 08:00:00 +0100" value="1"/>
            """)
        builder.addHeartRates(30_000..<40_000)
        let export = directory.child("export.xml")
        try builder.write(to: export)

        let clean = directory.child("clean")
        let cleanRun = try runner.run(["--store", clean, "import", export, "--batch-size", "500"])
        #expect(cleanRun.exitCode == 0, "\(cleanRun.standardError)")
        let expected = try Store(directory: StoreDirectory(path: clean)).contentRows()
        #expect(expected.count > 40_000)

        // A killed import resumes where it was committed, so a chain of runs finishes: then its
        // store must equal the clean one, and the next chain starts in a fresh store.
        let (kills, killed) = try KilledImportChain(runner: runner, directory: directory).run(
            ["import", export, "--batch-size", "500"], times: 30, seed: 20_261_121, expected: expected
        ) { store in
            for cursor in try store.cursors() {
                #expect(cursor.position <= Int64(builder.xml.utf8.count), "cursor past the data: \(cursor)")
            }
        }
        #expect(kills >= 10, "the import finished too fast to be killed mid-way; make the export larger")
        let final = try runner.run(["--store", killed, "import", export, "--batch-size", "500"])
        #expect(final.exitCode == 0, "\(final.standardError)")
        let resumed = try Store(directory: StoreDirectory(path: killed)).contentRows()
        #expect(resumed.count == expected.count)
        #expect(resumed == expected)
    }

    /// Real mid-file resume: a run killed once it has committed part of the file, run again,
    /// starts at its lowest committed cursor (not at byte 0), reads only what lies after it,
    /// and ends with the store an uninterrupted import gives.
    @Test func aKilledImportResumesAtItsCursorAndReadsOnlyTheRest() throws {
        var builder = ExportXMLBuilder(exportDate: "2024-03-20 09:00:00 +0100")
        // Minutes 0…24,999 from 2024-03-01 08:00 are cold; the last ~2,500 fall in the 7-day hot
        // window before the export date, so both lanes have cursors.
        builder.addHeartRates(0..<27_000)
        let export = directory.child("resume.xml")
        try builder.write(to: export)
        let size = Int64(builder.xml.utf8.count)

        let clean = directory.child("resume-clean")
        let cleanRun = try runner.run(["--store", clean, "import", export, "--batch-size", "500", "--json"])
        #expect(cleanRun.exitCode == 0, "\(cleanRun.standardError)")
        let total = try #require(Self.json(cleanRun.standardOutput)["records_read"] as? Int)
        #expect(total == 27_000)

        let killed = directory.child("resume-killed")
        var committed: Int64 = 0
        for attempt in 0..<20 where committed == 0 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: runner.executable)
            process.arguments = ["--store", killed, "import", export, "--batch-size", "500"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait for a cursor part-way through the file, then kill.
            while process.isRunning {
                usleep(2_000)
                let cursors = try Store(directory: StoreDirectory(path: killed)).cursors()
                let lowest =
                    [Lane.hot, .cold].map { lane in cursors.first { $0.lane == lane }?.position ?? 0 }.min() ?? 0
                if lowest > size / 4 {
                    kill(process.processIdentifier, SIGKILL)
                    break
                }
            }
            process.waitUntilExit()
            let cursors = try Store(directory: StoreDirectory(path: killed)).cursors()
            let lowest = [Lane.hot, .cold].map { lane in cursors.first { $0.lane == lane }?.position ?? 0 }.min() ?? 0
            committed = lowest < size ? lowest : 0
            if committed == 0 { try? FileManager.default.removeItem(atPath: killed) }
            _ = attempt
        }
        try #require(committed > 0, "no run was killed part-way through the file")

        let resumed = try runner.run(["--store", killed, "import", export, "--batch-size", "500", "--json"])
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        let summary = try Self.json(resumed.standardOutput)
        #expect(summary["resumed_at_byte"] as? Int == Int(committed))
        let read = try #require(summary["records_read"] as? Int)
        #expect(read > 0 && read < total, "read \(read) of \(total)")
        #expect(summary["bytes_read"] as? Int == Int(size - committed))
        #expect(
            try Store(directory: StoreDirectory(path: killed)).contentRows()
                == Store(directory: StoreDirectory(path: clean)).contentRows())

        // Run again once complete: nothing is left to read.
        let again = try runner.run(["--store", killed, "import", export, "--json"])
        let nothing = try Self.json(again.standardOutput)
        #expect(nothing["records_read"] as? Int == 0)
        #expect(nothing["resumed_at_byte"] as? Int == Int(size))
        // And --from-start reads it all again, adding nothing.
        let whole = try Self.json(
            try runner.run(["--store", killed, "import", export, "--from-start", "--json"]).standardOutput)
        #expect(whole["records_read"] as? Int == total)
        #expect(whole["duplicates"] as? Int == total)
        #expect(whole["resumed_at_byte"] as? Int == 0)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
