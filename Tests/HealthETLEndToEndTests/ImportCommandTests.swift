import Foundation
import HealthETLStore
import HealthETLTestSupport
import Testing

/// `healthetl import` run as a user would, on real exports and on crafted ones.
@Suite struct ImportCommandTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-import")

    func importJSON(_ path: String, store: String, extra: [String] = []) throws -> (Int32, [String: Any], String) {
        let result = try runner.run(["--store", store, "import", path, "--json"] + extra)
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return (result.exitCode, try #require(object, "stdout: \(result.standardOutput) stderr: \(result.standardError)"), result.standardError)
    }

    static func realExport(_ relative: String) -> String {
        TestPaths.realExport(relative)
    }

    /// Counts made independently of healthetl with a regular-expression scan of each file
    /// (top-level `<Record` outside `<Correlation>`, `<Workout`, `<ActivitySummary`).
    struct Expected: Sendable, CustomTestStringConvertible {
        var path: String
        var records: Int
        var correlations: Int
        var components: Int
        var workouts: Int
        var summaries: Int
        var testDescription: String { path }
    }

    static let expectations = [
        Expected(path: "curated-v14/export.xml", records: 26, correlations: 1, components: 2, workouts: 2, summaries: 3),
        Expected(path: "excerpts-v11/export.xml", records: 5, correlations: 0, components: 0, workouts: 1, summaries: 17),
        Expected(path: "ios16-broken-dtd/export.zip", records: 1, correlations: 0, components: 0, workouts: 1, summaries: 10),
        Expected(path: "inline-route/export.zip", records: 2, correlations: 0, components: 0, workouts: 1, summaries: 2),
        Expected(path: "inline-route/export-flat.xml", records: 2, correlations: 0, components: 0, workouts: 1, summaries: 2),
    ]

    @Test(arguments: expectations)
    func realExportImportsEveryRecord(_ expected: Expected) throws {
        let store = directory.child("store")
        let (code, summary, errors) = try importJSON(Self.realExport(expected.path), store: store)
        #expect(code == 0, "\(errors)")
        #expect(summary["complete"] as? Bool == true)
        #expect(summary["records_read"] as? Int == expected.records)
        let accepted = summary["accepted"] as? Int ?? -1
        let flagged = summary["flagged"] as? Int ?? -1
        let quarantined = summary["quarantined"] as? Int ?? -1
        let duplicates = summary["duplicates"] as? Int ?? -1
        #expect(accepted + flagged + quarantined + duplicates == expected.records)
        #expect(summary["correlations"] as? Int == expected.correlations)
        #expect((summary["correlation_components"] as? [String: Any])?["read"] as? Int == expected.components)
        #expect(summary["workouts"] as? Int == expected.workouts)
        #expect(summary["activity_summaries"] as? Int == expected.summaries)
        let lanes = try #require(summary["lanes"] as? [String: Int])
        #expect((lanes["hot"] ?? 0) + (lanes["cold"] ?? 0) == expected.records)

        // Stored once: the store holds what the summary says was new, and nothing more.
        let status = try Store(directory: StoreDirectory(path: store)).status()
        let components = (summary["correlation_components"] as? [String: Any])?["stored"] as? Int ?? 0
        let correlationsStored = expected.correlations - (summary["correlations_quarantined"] as? Int ?? 0)
        let ecgs = (summary["other_records"] as? [String: Any])?["stored"] as? Int ?? 0
        #expect(status.samples.total == accepted + flagged + components + correlationsStored + ecgs)

        // Running again resumes at the final cursor: nothing is left to read.
        let (resumedCode, resumed, _) = try importJSON(Self.realExport(expected.path), store: store)
        #expect(resumedCode == 0)
        #expect(resumed["records_read"] as? Int == 0)
        #expect((resumed["resumed_at_byte"] as? Int ?? 0) > 0)

        // Reading it all again (--from-start) finds nothing new.
        let (again, second, _) = try importJSON(Self.realExport(expected.path), store: store, extra: ["--from-start"])
        #expect(again == 0)
        #expect(second["accepted"] as? Int == 0)
        #expect(second["flagged"] as? Int == 0)
        #expect(second["duplicates"] as? Int == expected.records - quarantined)
        #expect(second["workouts"] as? Int == 0)
        #expect(second["tombstones"] as? Int == 0)
        #expect(try Store(directory: StoreDirectory(path: store)).status().samples.total == status.samples.total)
    }

    @Test func hrvBeatsAndRoutesAreKept() throws {
        let store = directory.child("store")
        _ = try importJSON(Self.realExport("curated-v14/export.xml"), store: store)
        _ = try importJSON(Self.realExport("ios16-broken-dtd/export.zip"), store: store)
        let rows = try Store(directory: StoreDirectory(path: store)).contentRows()
        // Beat lists are stored with the HRV sample, as [ms, bpm] pairs.
        #expect(rows.contains { $0.hasPrefix("0|") && $0.contains("heart_rate_variability_sdnn") && $0.hasSuffix("]]") })
        // The iOS 16 walk's GPX route: 6:… points in workout_route_points (table 6).
        #expect(rows.filter { $0.hasPrefix("6|") }.count > 100)
        // Workout statistics (table 5) from WorkoutStatistics elements.
        #expect(rows.contains { $0.hasPrefix("5|") })
    }

    @Test func gzipDisguisedAsXMLIsNotDecompressed() throws {
        let path = directory.child("export.xml")
        // The gzip magic number, then junk: a compressed file with an .xml name.
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01]).write(to: URL(fileURLWithPath: path))
        let result = try runner.run(["--store", directory.child("store"), "import", path])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("gzip"))
        // Said once, not repeated by the exit path.
        #expect(result.standardError.components(separatedBy: "error:").count == 2)
    }

    @Test func exportDeclaringAnEntityIsRefusedAsHostile() throws {
        let secret = directory.child("secret.txt")
        try "TOP-SECRET-VALUE".write(toFile: secret, atomically: true, encoding: .utf8)
        let path = directory.child("export.xml")
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE HealthData [
            <!ENTITY xxe SYSTEM "file://\(secret)">
            ]>
            <HealthData locale="en"><ExportDate value="2024-01-01 00:00:00 +0000"/>
            <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="&xxe;" unit="count/min"
             startDate="2024-01-01 00:00:00 +0000" endDate="2024-01-01 00:00:00 +0000" value="60"/>
            </HealthData>
            """
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        let store = directory.child("store")
        let result = try runner.run(["--store", store, "import", path])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("entity"))
        #expect(!result.standardError.contains("TOP-SECRET"))
        #expect(try Store(directory: StoreDirectory(path: store)).status().samples.total == 0)
    }

    @Test func urlLikePathIsNeverFetched() throws {
        let result = try runner.run(["--store", directory.child("store"), "import", "http://127.0.0.1:9/export.zip"])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("does not exist"))
    }

    @Test func newerExportTurnsWhatVanishedIntoTombstones() throws {
        let store = directory.child("store")
        var older = ExportXMLBuilder(exportDate: "2024-04-01 09:00:00 +0200")
        older.addHeartRates(0..<100)
        var newer = ExportXMLBuilder(exportDate: "2024-05-01 09:00:00 +0200")
        let removed: Set<Int> = [3, 17, 42, 43, 99]
        for index in 0..<100 where !removed.contains(index) { newer.add(ExportXMLBuilder.heartRate(index)) }
        newer.addHeartRates(100..<110)
        try older.write(to: directory.child("a.xml"))
        try newer.write(to: directory.child("b.xml"))

        let (_, first, _) = try importJSON(directory.child("a.xml"), store: store)
        #expect(first["accepted"] as? Int == 100)
        #expect(first["tombstones"] as? Int == 0)
        let (_, second, _) = try importJSON(directory.child("b.xml"), store: store)
        #expect(second["accepted"] as? Int == 10)
        #expect(second["tombstones"] as? Int == removed.count)
        #expect((second["lanes"] as? [String: Int])?["change"] == removed.count)
        var status = try Store(directory: StoreDirectory(path: store)).status()
        #expect(status.samples.total == 105)
        #expect(status.tombstones.total == removed.count)

        // The older export again: it predates the deletions, so nothing comes back and nothing more is deleted.
        let (_, third, _) = try importJSON(directory.child("a.xml"), store: store, extra: ["--from-start"])
        #expect(third["tombstones"] as? Int == 0)
        #expect(third["accepted"] as? Int == 0)
        // The five it held that were deleted since are kept out, and counted apart.
        #expect(third["duplicates"] as? Int == 95)
        #expect(third["deleted_earlier"] as? Int == removed.count)
        status = try Store(directory: StoreDirectory(path: store)).status()
        #expect(status.samples.total == 105)
        #expect(status.tombstones.total == removed.count)
    }

    @Test func truncatedExportKeepsWhatCameBeforeAndExitsThree() throws {
        var builder = ExportXMLBuilder()
        builder.addHeartRates(0..<2_000)
        let full = Array(builder.xml.utf8)
        let path = directory.child("cut.xml")
        try Data(full[0..<(full.count * 2 / 3)]).write(to: URL(fileURLWithPath: path))
        let store = directory.child("store")
        let (code, summary, errors) = try importJSON(path, store: store)
        #expect(code == 3)
        #expect(summary["complete"] as? Bool == false)
        #expect((summary["problem"] as? String)?.contains("line") == true)
        #expect(errors.contains("damaged"))
        let read = summary["records_read"] as? Int ?? 0
        #expect(read > 1_000 && read < 2_000)
        #expect(try Store(directory: StoreDirectory(path: store)).status().samples.total == summary["accepted"] as? Int)
        // The run is recorded as incomplete, and a truncated export never deletes anything.
        #expect(summary["tombstones"] as? Int == 0)
    }

    @Test func humanSummaryShowsOutcomes() throws {
        let result = try runner.run(["--store", directory.child("store"), "import", Self.realExport("curated-v14/export.xml")])
        #expect(result.exitCode == 0, "\(result.standardError)")
        for text in ["accepted", "quarantined", "duplicates", "workouts", "lanes hot / cold / change"] {
            #expect(result.standardOutput.contains(text), "\(text)")
        }
    }
}
