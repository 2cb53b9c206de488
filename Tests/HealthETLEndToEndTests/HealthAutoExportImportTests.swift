import Foundation
import HealthETLTestSupport
import Testing

/// Health Auto Export files through the built binary: `import` finds them by content, counts add
/// up, a re-import or an overlapping file adds nothing twice, a damaged file keeps what came
/// before its damage and exits 3, and a summary never adds to the raw samples of the same hours.
@Suite(.serialized) struct HealthAutoExportImportTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-hae-e2e")

    func json(_ result: CommandRunner.Result, exit: Int32 = 0) throws -> [String: Any] {
        #expect(result.exitCode == exit, "\(result.standardError)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    func write(_ name: String, days: Int, styles: [String] = [], seed: Int = 1) throws -> (String, Int) {
        let path = directory.child(name)
        let styleArguments = styles.flatMap { ["--hae-style", $0] }
        let summary = try json(
            runner.run(
                [
                    "simulate", "--export", "health-auto-export", path, "--days", String(days), "--seed", String(seed),
                    "--json",
                ]
                    + styleArguments))
        return (path, try #require(summary["records"] as? Int))
    }

    static func total(_ summary: [String: Any]) -> Int {
        let components = summary["correlation_components"] as? [String: Any] ?? [:]
        return ["accepted", "flagged", "quarantined", "duplicates", "deleted_earlier"].reduce(0) {
            $0 + (summary[$1] as? Int ?? 0)
        } + (components["stored"] as? Int ?? 0) + (components["already_stored"] as? Int ?? 0)
            + (components["quarantined"] as? Int ?? 0)
    }

    @Test func filesImportOnceAndTheCountsAddUp() throws {
        let store = directory.child("store")
        let (raw, rawRecords) = try write("raw.json", days: 4)
        let (summarized, summarizedRecords) = try write(
            "summarized.json", days: 4, styles: ["summarized", "twelve-hour"])

        let first = try json(runner.run(["--store", store, "import", raw, "--json"]))
        #expect(first["source"] as? String == "health_auto_export")
        #expect(first["stream"] as? String == "health_auto_export:files")
        let components = first["correlation_components"] as? [String: Any] ?? [:]
        #expect((first["records_read"] as? Int ?? 0) + (components["read"] as? Int ?? 0) == rawRecords)
        #expect(Self.total(first) == rawRecords)
        #expect(first["quarantined_by_reason"] as? [String: Int] == [:], "the medication is read too")
        #expect((first["workouts"] as? Int ?? 0) > 0)

        let again = try json(runner.run(["--store", store, "import", raw, "--json"]))
        #expect(again["accepted"] as? Int == 0)
        #expect(again["duplicates"] as? Int == first["accepted"] as? Int)

        let other = try json(runner.run(["--store", store, "import", summarized, "--json"]))
        #expect(Self.total(other) == summarizedRecords)
        #expect(other["flagged"] as? Int == 0, "a summary is no reason for review")
    }

    @Test func aSummaryNeverAddsToRawStepsOfTheSameHours() throws {
        // The same phone, the same seed: the raw file's steps and the summarized file's hourly
        // steps describe the same hours. Together they roll up to the raw total alone.
        let (raw, _) = try write("steps-raw.json", days: 2, seed: 3)
        let (summarized, _) = try write("steps-summarized.json", days: 2, styles: ["summarized"], seed: 3)
        let rawOnly = directory.child("raw-only")
        let both = directory.child("both")
        _ = try json(runner.run(["--store", rawOnly, "import", raw, "--json"]))
        _ = try json(runner.run(["--store", both, "import", raw, summarized, "--json"]))
        let summarizedOnly = directory.child("summarized-only")
        _ = try json(runner.run(["--store", summarizedOnly, "import", summarized, "--json"]))

        func steps(_ store: String) throws -> [String: Double] {
            let listing = try json(
                runner.run(["--store", store, "projections", "--metric", "step_count", "--local", "--json"]))
            let rows = listing["days"] as? [[String: Any]] ?? []
            return Dictionary(
                uniqueKeysWithValues: rows.compactMap { row in
                    (row["day"] as? String).map { ($0, (row["sum"] as? NSNumber)?.doubleValue ?? -1) }
                })
        }
        let rawSteps = try steps(rawOnly)
        #expect(!rawSteps.isEmpty)
        #expect(try steps(both) == rawSteps)
        #expect(try steps(summarizedOnly) != rawSteps, "the summaries alone count where nothing else does")
    }

    @Test func aDamagedFileKeepsWhatCameBeforeAndExitsThree() throws {
        let (path, records) = try write("whole.json", days: 2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = directory.child("cut.json")
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        let result = try runner.run(["--store", directory.child("damaged"), "import", cut, "--json"])
        let summary = try json(result, exit: 3)
        #expect(summary["complete"] as? Bool == false)
        let read = summary["records_read"] as? Int ?? 0
        #expect(read > 0 && read < records)
        #expect(result.standardError.contains("ends inside"))
    }
}
