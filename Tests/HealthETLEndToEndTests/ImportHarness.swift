import Foundation
import HealthETLStore
import HealthETLTestSupport
import Testing

/// Runs `healthetl import` as a user would and checks what it reports and stores: shared by
/// `ImportCommandTests` (generated exports) and `RealExportTests` (the real ones).
struct ImportHarness {
    /// Counts made independently of healthetl (for the real exports, a regular-expression scan of
    /// each file: top-level `<Record` outside `<Correlation>`, `<Workout`, `<ActivitySummary`).
    struct Expected: Sendable, CustomTestStringConvertible {
        var path: String
        var records: Int
        var correlations: Int
        var components: Int
        var workouts: Int
        var summaries: Int
        var testDescription: String { path }
    }

    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-import")

    /// `import PATH --json`: the exit code, the JSON summary and what went to standard error.
    /// A run that printed no JSON fails the test with what it did print.
    func importJSON(_ path: String, store: String, extra: [String] = []) throws -> (
        Int32, [String: Any], String
    ) {
        let result = try runner.run(["--store", store, "import", path, "--json"] + extra)
        let object =
            (try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))) as? [String: Any]
        let summary = try #require(
            object,
            "no JSON summary (exit \(result.exitCode)); stdout: \(result.standardOutput) stderr: \(result.standardError)"
        )
        return (result.exitCode, summary, result.standardError)
    }

    /// Imports `path` into a fresh store: every record is accounted for and stored once, and a
    /// second run from the final cursor finds nothing new.
    func expectImportsEveryRecord(_ path: String, _ expected: Expected) throws {
        let store = directory.child("store")
        let (code, summary, errors) = try importJSON(path, store: store)
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
        let (resumedCode, resumed, _) = try importJSON(path, store: store)
        #expect(resumedCode == 0)
        #expect(resumed["records_read"] as? Int == 0)
        #expect((resumed["resumed_at_byte"] as? Int ?? 0) > 0)

        // Reading it all again (--from-start) finds nothing new.
        let (again, second, _) = try importJSON(path, store: store, extra: ["--from-start"])
        #expect(again == 0)
        #expect(second["accepted"] as? Int == 0)
        #expect(second["flagged"] as? Int == 0)
        #expect(second["duplicates"] as? Int == expected.records - quarantined)
        #expect(second["workouts"] as? Int == 0)
        #expect(second["tombstones"] as? Int == 0)
        #expect(
            try Store(directory: StoreDirectory(path: store)).status().samples.total == status.samples.total)
    }

    /// Without `--json`, the summary is a table naming every outcome.
    func expectHumanSummaryShowsOutcomes(_ path: String) throws {
        let result = try runner.run(["--store", directory.child("store"), "import", path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        for text in ["accepted", "quarantined", "duplicates", "workouts", "lanes hot / cold / change"] {
            #expect(result.standardOutput.contains(text), "\(text)")
        }
    }
}
