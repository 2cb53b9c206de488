import Foundation
import HealthETLTestSupport
import Testing

/// `simulate --export apple-health --every-type`, imported as a user would: every type of the
/// catalog a HealthKit export can hold is stored, none unknown or quarantined, each quantity in its
/// canonical unit although the export wrote most in another one (kJ, degF, mg, lb…).
@Suite(.serialized) struct EveryTypeImportTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-every-type")

    func json(_ result: CommandRunner.Result) throws -> [String: Any] {
        #expect(result.exitCode == 0, "\(result.standardError)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    /// The value the tour writes: inside the plausible range (a twentieth of a day's most for
    /// cumulative metrics), as `CatalogTour.typicalValue` documents it.
    static func typicalValue(_ metric: [String: Any]) -> Double {
        let plausible = metric["plausible"] as? [String: Double] ?? [:]
        let hard = metric["hard"] as? [String: Double] ?? [:]
        let low = plausible["min"] ?? hard["min"] ?? 0
        let high = plausible["max"] ?? hard["max"] ?? low + 2
        let value = metric["kind"] as? String == "cumulative" ? low + (high - low) / 20 : (low + high) / 2
        return (value * 100).rounded() / 100
    }

    static func isRecordType(_ identifier: String) -> Bool {
        (identifier.hasPrefix("HKQuantityTypeIdentifier") || identifier.hasPrefix("HKCategoryTypeIdentifier")
            || identifier.hasPrefix("HKDataType")) && identifier != "HKDataTypeIdentifierElectrocardiogram"
    }

    @Test func anExportOfEveryTypeImportsWithNothingUnknownAndEveryUnitConverted() throws {
        let zip = directory.child("every.zip")
        let store = directory.child("store")
        let written = try json(
            runner.run(["simulate", "--export", "apple-health", zip, "--records", "10", "--every-type", "--json"]))
        let tourRecords = try #require(written["every_type_records"] as? Int)
        // 192 quantity and category types, the second spelling of one, two state-of-mind
        // spellings, the sleep goal, and a meal's nutrients at top level.
        #expect(tourRecords >= 196)

        let report = try json(runner.run(["--store", store, "import", zip, "--json"]))
        #expect(report["quarantined"] as? Int == 0, "\(report["quarantined_by_reason"] ?? "")")
        #expect(report["flagged"] as? Int == 0, "\(report["flagged_by_reason"] ?? "")")
        #expect(report["records_read"] as? Int == 10 + tourRecords)
        #expect(report["correlations_quarantined"] as? Int == 0)
        #expect((report["correlations"] as? Int ?? 0) >= 1)

        let catalog = try json(runner.run(["metrics", "--json"]))
        let metrics = try #require(catalog["metrics"] as? [[String: Any]])
        let projections = try json(
            runner.run([
                "--store", store, "projections", "--local", "--from", "2024-12-01", "--to", "2024-12-01", "--json",
            ]))
        let days = try #require(projections["days"] as? [[String: Any]])
        let rows = Dictionary(days.map { ($0["metric"] as? String ?? "", $0) }) { first, _ in first }
        var checkedValues = 0
        for metric in metrics {
            let id = try #require(metric["id"] as? String)
            let kind = metric["kind"] as? String ?? ""
            let types = (metric["healthkit"] as? [String] ?? []).filter(Self.isRecordType)
            guard !types.isEmpty, kind != "correlation" else { continue }
            guard let row = rows[id] else {
                Issue.record("\(id): nothing stored for \(types)")
                continue
            }
            // Where the tour's record is the day's only one, its value reads back in the
            // canonical unit. (The model's own records and the meal's nutrients add to some days.)
            guard row["sources"] as? [String] == ["Health"], row["count"] as? Int == types.count else { continue }
            let expected = Self.typicalValue(metric)
            let actual: Double?
            switch kind {
            case "cumulative": actual = (row["sum"] as? Double).map { $0 / Double(types.count) }
            case "discrete": actual = row["avg"] as? Double ?? row["latest"] as? Double
            default: continue
            }
            let value = try #require(actual, "\(id): no value in \(row)")
            #expect(abs(value - expected) <= 1e-4 * max(abs(expected), 1), "\(id): \(value), expected \(expected)")
            checkedValues += 1
        }
        #expect(checkedValues >= 100)
    }
}
