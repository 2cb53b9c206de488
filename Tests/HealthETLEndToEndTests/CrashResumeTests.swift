import Foundation
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

        let killed = directory.child("killed")
        var random = SeededGenerator(seed: 20_261_121)
        var kills = 0
        for _ in 0..<30 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: runner.executable)
            process.arguments = ["--store", killed, "import", export, "--batch-size", "500"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(random.next() % 1_500_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            let store = try Store(directory: StoreDirectory(path: killed))
            #expect(try store.integrityCheck() == ["ok"])
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
}
