import Foundation
import HealthETLStore
import HealthETLTestSupport
import Testing

/// `healthetl import` run as a user would, on generated and crafted exports (the real ones are
/// in `RealExportTests`).
@Suite struct ImportCommandTests {
    let harness = ImportHarness()
    var runner: CommandRunner { harness.runner }
    var directory: TemporaryDirectory { harness.directory }

    func importJSON(_ path: String, store: String, extra: [String] = []) throws
        -> (Int32, [String: Any], String)
    {
        try harness.importJSON(path, store: store, extra: extra)
    }

    /// `ExportQuirksFixture` written as a stored export.zip (this target has no zlib) or unzipped.
    func writeQuirks(_ form: String) throws -> String {
        if form == "export.zip" {
            try ExportQuirksFixture.writeZip(to: directory.child(form))
            return directory.child(form)
        }
        return try ExportQuirksFixture.writeFolder(in: directory.path)
    }

    static let quirkForms = ["export.zip", "unzipped folder"]

    /// An export without `ExportDate` whose first element is a record: imported again, it resumes
    /// at its end and reads nothing, and the counts say so (the record that ends its prologue was
    /// handed on again, and reported as 1 duplicate of 0 read).
    @Test(arguments: [true, false])
    func anUndatedExportImportedAgainCountsNothingItDidNotRead(_ withMe: Bool) throws {
        let records = (0..<3).map { minute in
            "<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\""
                + " startDate=\"2024-03-01 08:0\(minute):00 +0100\" endDate=\"2024-03-01 08:0\(minute):00 +0100\""
                + " value=\"6\(minute)\"/>"
        }
        let me = withMe ? [#"<Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01"/>"#] : []
        let xml =
            (["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<HealthData locale=\"en_US\">"] + me + records
            + ["</HealthData>"]).joined(separator: "\n")
        let path = directory.child("undated-\(withMe).xml")
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        let store = directory.child("undated-store-\(withMe)")
        let first = try importJSON(path, store: store)
        #expect(first.0 == 0)
        #expect(first.1["records_read"] as? Int == 3 && first.1["accepted"] as? Int == 3)
        let again = try importJSON(path, store: store)
        #expect(again.0 == 0)
        #expect((again.1["resumed_at_byte"] as? Int ?? 0) > 0)
        for key in ["records_read", "accepted", "duplicates", "quarantined"] {
            #expect(again.1[key] as? Int == 0, "\(key): \(again.1)")
        }
    }

    @Test(arguments: quirkForms)
    func generatedExportWithEveryQuirkImportsEveryRecord(_ form: String) throws {
        try harness.expectImportsEveryRecord(
            try writeQuirks(form),
            ImportHarness.Expected(
                path: form, records: ExportQuirksFixture.topLevel["Record"] ?? 0, correlations: 0,
                components: 0, workouts: 1, summaries: 1))
    }

    /// The end-to-end twin of `RealExportTests.hrvBeatsAndRoutesAreKept`, and more: each quirk of
    /// the fixture, down to the store's rows (`Store.contentRows`: `table|column|…`, split here).
    @Test(arguments: quirkForms)
    func everyQuirkEndsUpInTheStore(_ form: String) throws {
        let store = directory.child("store")
        let (code, summary, errors) = try importJSON(try writeQuirks(form), store: store)
        #expect(code == 0, "\(errors)")
        #expect(summary["complete"] as? Bool == true)
        #expect((summary["warnings"] as? [String: Int])?.isEmpty == true, "\(summary["warnings"] ?? "")")
        #expect(summary["documents"] as? Int == 3)
        #expect((summary["other_records"] as? [String: Any])?["stored"] as? Int == 1)
        let rows = try Store(directory: StoreDirectory(path: store)).contentRows().map {
            $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
        // Table 0, samples: 0|id|metric|source|version|device|start|end|offset|value|category|text|
        // unit|flags|lane|metadata|stream|points.
        let samples = rows.filter { $0[0] == "0" }

        // 1.25 mi, in metres, with the unit as written.
        let distance = try #require(samples.first { $0[2] == "distance_walking_running" })
        let metres = try #require(Double(distance[9]), "\(distance)")
        #expect(abs(metres - ExportQuirksFixture.distanceMeters) < 1e-9)
        #expect(distance[12] == "mi")

        // Comma-decimal beat times, stored as [ms, bpm] with the HRV samples.
        let beats = samples.filter { $0[2] == "heart_rate_variability_sdnn" }.map { $0[17] }
        let expectedBeats = [ExportQuirksFixture.eveningBeats, ExportQuirksFixture.midnightBeats].map {
            "[" + $0.map { "[\($0.milliseconds),\($0.bpm)]" }.joined(separator: ",") + "]"
        }
        #expect(beats.sorted() == expectedBeats.sorted())

        // The ECG as a sample of its own, from its recorded date for 1536 voltages at 512 Hz.
        let ecg = try #require(samples.first { $0[2] == "ecg" })
        #expect(ecg[6] == "\(ExportQuirksFixture.ecgStartMilliseconds)")
        #expect(ecg[7] == "\(ExportQuirksFixture.ecgEndMilliseconds)")

        // Table 6, the GPX route: 6|workout|seq|time|latitude|longitude.
        let route = rows.filter { $0[0] == "6" }.sorted { Int($0[2]) ?? 0 < Int($1[2]) ?? 0 }
        #expect(route.count == ExportQuirksFixture.routePoints)
        let start = "\(ExportQuirksFixture.firstRoutePointMilliseconds)"
        #expect(route.first.map { Array($0[3...5]) } == [start, "52.52", "13.405"])

        // Table 5, workout statistics: 5|workout|part|seq|type|sum|average|minimum|maximum|unit.
        #expect(
            rows.contains {
                $0[0] == "5" && $0[4] == "HKQuantityTypeIdentifierDistanceWalkingRunning" && $0[5] == "1.25"
                    && $0[9] == "mi"
            })

        // Table 8, documents: Me, the Audiogram with its six points, the ECG without the person.
        let documents = rows.filter { $0[0] == "8" }
        #expect(documents.map { $0[2] }.sorted() == ["audiogram", "characteristics", "ecg"])
        let audiogram = try #require(documents.first { $0[2] == "audiogram" }).joined(separator: "|")
        #expect(audiogram.components(separatedBy: "\"SensitivityPoint\"").count - 1 == 6)
        let ecgDocument = try #require(documents.first { $0[2] == "ecg" }).joined(separator: "|")
        #expect(ExportQuirksFixture.ecgPersonalValues.allSatisfy { !ecgDocument.contains($0) })
    }

    @Test func gzipDisguisedAsXMLIsNotDecompressed() throws {
        let path = directory.child("export.xml")
        // The gzip magic number, then junk: a compressed file with an .xml name.
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01]).write(
            to: URL(fileURLWithPath: path))
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
        try harness.expectHumanSummaryShowsOutcomes(try writeQuirks("export.zip"))
    }
}
