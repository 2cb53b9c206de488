import Foundation
import HealthETLTestSupport
import Testing

/// `healthetl export`, run as a user runs it, read back by independent readers: an RFC 4180
/// parser, JSONSerialization, and the fhir.resources R4B models.
@Suite(.serialized) struct ExportCommandTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-export")

    func fixture() throws -> ExportFixture { try ExportFixture.shared.get() }

    func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text.prefix(300))")
    }

    func export(_ arguments: [String], store: String? = nil) throws -> CommandRunner.Result {
        try runner.run(["--store", try store ?? fixture().store, "export"] + arguments)
    }

    /// Samples per metric as `status` counts them: what every export must add up to.
    func storedByMetric() throws -> [String: Int] {
        let status = try object(try runner.run(["--store", try fixture().store, "status", "--json"]).standardOutput)
        let samples = try #require(status["samples"] as? [String: Any])
        return try #require(samples["byMetric"] as? [String: Int] ?? samples["by_metric"] as? [String: Int])
    }

    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func csvHoldsEveryStoredSampleOnceWithItsUnit() throws {
        let path = directory.child("samples.csv")
        let result = try export(["--format", "csv", "--out", path, "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let rows = CSVRows.parse(try String(contentsOfFile: path, encoding: .utf8))
        let header = try #require(rows.first)
        #expect(header.first == "metric" && header.contains("unit") && header.contains("start_utc"))
        let body = rows.dropFirst()
        #expect(body.allSatisfy { $0.count == header.count })
        let column = { (name: String) in header.firstIndex(of: name)! }
        let byMetric = Dictionary(grouping: body, by: { $0[column("metric")] }).mapValues(\.count)
        #expect(byMetric == (try storedByMetric()))
        #expect(Set(body.map { $0[column("id")] }).count == body.count)
        // Canonical units, and a device description with commas survives quoting.
        #expect(body.filter { $0[0] == "heart_rate" }.allSatisfy { $0[column("unit")] == "/min" })
        #expect(body.contains { $0[column("device")].contains(", manufacturer:") })
        #expect(body.contains { !$0[column("flags")].isEmpty })
        #expect(try mode(path) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        let summary = try object(result.standardOutput)
        #expect(summary["records"] as? Int == body.count)
    }

    /// OWASP's CSV injection: a source named as a formula opens as text, unless asked for raw.
    @Test func aCellASpreadsheetWouldRunIsWrittenAsTextUnlessRawIsAsked() throws {
        let formula = "=HYPERLINK(&quot;http://example.invalid&quot;,&quot;x&quot;)"
        var builder = ExportXMLBuilder()
        builder.add(ExportXMLBuilder.heartRate(0, source: formula))
        builder.add(ExportXMLBuilder.heartRate(1, source: "@SUM(A1)"))
        let xml = directory.child("formula.xml")
        try builder.write(to: xml)
        let store = directory.child("formula-store")
        let imported = try runner.run(["--store", store, "import", xml])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        func sources(_ extra: [String]) throws -> [String] {
            let path = directory.child("formula\(extra.count).csv")
            let result = try export(["--format", "csv", "--out", path] + extra, store: store)
            #expect(result.exitCode == 0, "\(result.standardError)")
            let rows = CSVRows.parse(try String(contentsOfFile: path, encoding: .utf8))
            let column = try #require(rows.first?.firstIndex(of: "source"))
            return rows.dropFirst().map { $0[column] }.sorted()
        }
        #expect(try sources([]) == ["'=HYPERLINK(\"http://example.invalid\",\"x\")", "'@SUM(A1)"])
        #expect(try sources(["--csv-raw-cells"]) == ["=HYPERLINK(\"http://example.invalid\",\"x\")", "@SUM(A1)"])
        let refused = try export(["--format", "ndjson", "--csv-raw-cells"], store: store)
        #expect(refused.exitCode != 0)
        #expect(refused.standardError.contains("--csv-raw-cells is for --format csv"))
    }

    @Test func ndjsonToStandardOutputIsOneSampleALine() throws {
        let result = try export(["--format", "ndjson", "--out", "-"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        var byMetric: [String: Int] = [:]
        for line in lines {
            let sample = try object(String(line))
            byMetric[sample["metric"] as? String ?? "?", default: 0] += 1
            #expect(sample["start"] as? String != nil && sample["source"] as? String != nil)
        }
        #expect(byMetric == (try storedByMetric()))
        // The data went to standard output, so the summary went to standard error.
        #expect(result.standardError.contains("Exported \(lines.count) samples"))
    }

    @Test func aFHIRBundleIsValidR4BAndCountsBackToTheStore() throws {
        let selfCheck = try PythonTools.run("validate_fhir.py", ["--self-check"])
        #expect(selfCheck.exitCode == 0, "\(selfCheck.standardOutput)\(selfCheck.standardError)")
        let path = directory.child("bundle.json")
        let result = try export(["--format", "fhir", "--out", path, "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let validation = try PythonTools.run("validate_fhir.py", [path])
        #expect(validation.exitCode == 0, "\(validation.standardOutput.prefix(2000))\(validation.standardError)")
        let report = try object(validation.standardOutput)
        #expect(report["problems"] as? [String] == [])
        let stored = try storedByMetric()
        #expect(report["by_metric"] as? [String: Int] == stored)
        let summary = try object(result.standardOutput)
        let types = try #require(report["by_type"] as? [String: Int])
        #expect(types["Patient"] == 1)
        #expect(types["Observation"] == summary["observations"] as? Int)
        // Panels hold their components: fewer Observations than samples.
        #expect(types["Observation", default: 0] < stored.values.reduce(0, +))
        // The values, metric by metric, are the ones the CSV export writes.
        let csv = CSVRows.parse(try export(["--format", "csv"]).standardOutput)
        var csvSums: [String: Double] = [:]
        for row in csv.dropFirst() where !row[6].isEmpty { csvSums[row[0], default: 0] += Double(row[6]) ?? .nan }
        let fhirSums = try #require(report["value_sums"] as? [String: Double])
        #expect(fhirSums.keys.sorted() == csvSums.keys.sorted())
        for (metric, sum) in csvSums {
            #expect(abs((fhirSums[metric] ?? .nan) - sum) <= 1e-6 * max(1, abs(sum)), "\(metric)")
        }
        #expect((summary["without_loinc"] as? [String])?.contains("apple_stand_hour") == true)
        #expect((summary["without_loinc"] as? [String])?.contains("heart_rate") == false)
    }

    @Test func fhirBulkDataFilesAreValidToo() throws {
        let folder = directory.child("bulk")
        let result = try export(["--format", "fhir", "--bulk", "--out", folder])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "Observation.ndjson", "Patient.ndjson",
            ])
        #expect(try mode(folder + "/Observation.ndjson") == 0o600)
        let validation = try PythonTools.run("validate_fhir.py", [folder])
        #expect(validation.exitCode == 0, "\(validation.standardOutput.prefix(2000))\(validation.standardError)")
        #expect(try object(validation.standardOutput)["by_metric"] as? [String: Int] == (try storedByMetric()))
    }

    @Test func aRangeAMetricAndASourceSelectExactlyTheirSamples() throws {
        let all = directory.child("all.csv")
        #expect(try export(["--format", "csv", "--out", all]).exitCode == 0)
        let rows = CSVRows.parse(try String(contentsOfFile: all, encoding: .utf8))
        let header = rows[0]
        let column = { (name: String) in header.firstIndex(of: name)! }
        let source = "Simon’s Apple Watch"
        let expected = rows.dropFirst().filter { row in
            let local = row[column("start_local")].isEmpty ? row[column("start_utc")] : row[column("start_local")]
            let day = String(local.prefix(10))
            return row[column("source")] == source && ["heart_rate", "step_count"].contains(row[0])
                && day >= "2024-11-24" && day <= "2024-11-26"
        }
        #expect(expected.count > 100)
        let some = directory.child("some.csv")
        let result = try export([
            "--format", "csv", "--metric", "heart_rate", "--metric", "HKQuantityTypeIdentifierStepCount", "--from",
            "2024-11-24", "--to", "2024-11-26", "--source", source, "--out", some,
        ])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let selected = CSVRows.parse(try String(contentsOfFile: some, encoding: .utf8)).dropFirst()
        #expect(selected.map { $0[column("id")] }.sorted() == expected.map { $0[column("id")] }.sorted())
    }

    @Test func theDailyExportEqualsWhatProjectionsComputes() throws {
        let fixture = try fixture()
        let result = try export(["--format", "ndjson", "--daily", "--from", fixture.from, "--to", fixture.to])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let lines = try result.standardOutput.split(separator: "\n").map { try object(String($0)) }
        let (days, nights) = try fixture.projections()
        func key(_ row: [String: Any]) -> String {
            "\(row["metric"] ?? "")|\(row["day"] ?? "")|\(row["sum"] ?? "-")|\(row["avg"] ?? "-")|\(row["count"] ?? "")"
        }
        let exported = lines.filter { $0["kind"] as? String == "daily_rollup" }.map(key).sorted()
        let computed = days.map { day in day.filter { !($0.value is NSNull) } }.map(key).sorted()
        #expect(exported.count > 300)
        #expect(exported == computed)
        let exportedNights = lines.filter { $0["kind"] as? String == "sleep_night" }
        #expect(exportedNights.map { "\($0["night"] ?? "")" } == nights.map { "\($0["night"] ?? "")" })

        let csv = try export(["--format", "csv", "--daily", "--from", fixture.from, "--to", fixture.to])
        let rows = CSVRows.parse(csv.standardOutput)
        #expect(rows.count == lines.count + 1)
        #expect(rows.dropFirst().allSatisfy { $0.count == rows[0].count })
    }

    @Test func whatItCannotDoItRefusesWithTheFix() throws {
        let cases: [([String], String)] = [
            (["--format", "csv", "--metric", "nonsense"], "healthetl metrics"),
            (["--format", "fhir", "--daily"], "csv or ndjson"),
            (["--format", "csv", "--bulk", "--out", directory.child("b")], "--format fhir"),
            (["--format", "csv", "--from-collector"], "--daily"),
            (["--format", "csv", "--daily", "--source", "Nobody"], "every source"),
            (["--format", "csv", "--source", "Nobody"], "Simon’s Apple Watch"),
            (["--format", "xml"], "csv"),
        ]
        for (arguments, hint) in cases {
            let result = try export(arguments)
            #expect(result.exitCode == 2, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(hint), "\(arguments): \(result.standardError)")
        }
        // A file that cannot be created: a failure that says where, and no file.
        let blocked = directory.child("no-such-folder/out.csv")
        let result = try export(["--format", "csv", "--out", blocked])
        #expect(result.exitCode == 1 && result.standardError.contains("cannot"))
        #expect(!FileManager.default.fileExists(atPath: blocked))
        // A device is written through, never replaced (a rename over /dev/null would replace it).
        let null = try export(["--format", "csv", "--metric", "body_mass", "--out", "/dev/null"])
        #expect(null.exitCode == 0, "\(null.standardError)")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func theDailyFiguresCanComeFromTheCollector() throws {
        let server = try UploadCommandTests.Server(runner: runner, directory: directory)
        defer { server.stop() }
        let token = directory.child("token")
        _ = FileManager.default.createFile(
            atPath: token, contents: Data(UploadCommandTests.token.utf8), attributes: [.posixPermissions: 0o600])
        let store = directory.child("store")
        let simulate = try runner.run([
            "--store", store, "simulate", "--days", "10", "--seed", "5", "--origin", "2026-01-01",
        ])
        #expect(simulate.exitCode == 0, "\(simulate.standardError)")
        let upload = try runner.run(["--store", store, "upload", "--endpoint", server.url, "--token-file", token])
        #expect(upload.exitCode == 0, "\(upload.standardError)")
        let range = [
            "--from", "2025-12-22", "--to", "2025-12-31", "--metric", "step_count", "--metric", "sleep_analysis",
        ]
        let remote = try export(
            ["--format", "ndjson", "--daily", "--from-collector", "--endpoint", server.url, "--token-file", token]
                + range,
            store: store)
        #expect(remote.exitCode == 0, "\(remote.standardError)")
        let local = try export(["--format", "ndjson", "--daily"] + range, store: store)
        func rows(_ text: String) throws -> [String] {
            try text.split(separator: "\n").map { line in
                let row = try object(String(line))
                let figures = ["metric", "day", "night", "sum", "avg", "count", "asleep_s", "in_bed_s", "deep_s"]
                return figures.map { "\($0)=\(row[$0].map { String(describing: $0) } ?? "-")" }.joined(separator: " ")
            }
        }
        #expect(try rows(remote.standardOutput).count > 15)
        #expect(try rows(remote.standardOutput) == rows(local.standardOutput))
    }
}
