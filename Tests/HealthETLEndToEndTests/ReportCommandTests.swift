import Foundation
import HealthETLTestSupport
import Testing

/// `healthetl report`, opened in a real browser: headless Chromium (installed by `make test`)
/// renders it, and the charted days must be the ones `projections --local` computes.
@Suite(.serialized) struct ReportCommandTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-report")

    func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text.prefix(500))")
    }

    /// What `check_report.py` saw in Chromium.
    func rendered(_ report: String) throws -> [String: Any] {
        let result = try PythonTools.run("check_report.py", [report, report + ".png"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        return try object(result.standardOutput)
    }

    @Test func chromiumShowsItWithoutARequestOrAnErrorChartingWhatProjectionsComputes() throws {
        let fixture = try ExportFixture.shared.get()
        let path = directory.child("report.html")
        let result = try runner.run([
            "--store", fixture.store, "report", "--from", fixture.from, "--to", fixture.to, "--out", path, "--json",
        ])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        let page = try rendered(path)
        #expect(page["requests"] as? [String] == [])
        #expect(page["console_errors"] as? [String] == [])
        let screenshot = try #require(page["screenshot"] as? [String: Any])
        #expect(screenshot["distinct_colours"] as? Int ?? 0 > 50)
        #expect(screenshot["non_background_share"] as? Double ?? 0 > 0.05)
        #expect(
            page["sections"] as? [String]
                == [
                    "summary", "steps", "resting-heart-rate", "hrv", "sleep", "insights", "weight", "workouts",
                    "coverage",
                    "quality",
                ])
        let backgrounds = try #require(page["backgrounds"] as? [String: String])
        #expect(backgrounds["light"] == "rgb(255, 255, 255)" && backgrounds["print"] == "rgb(255, 255, 255)")
        #expect(backgrounds["dark"] != backgrounds["light"])
        #expect(page["pdf_pages"] as? Int ?? 0 >= 2)

        // The charted days, metric by metric, against `projections --local --json`.
        let (days, nights) = try fixture.projections()
        let charted = try #require(page["charted"] as? [[Any]])
        for metric in ["step_count", "resting_heart_rate", "heart_rate_variability_sdnn", "body_mass"] {
            var expected: [String: Double] = [:]
            for day in days where day["metric"] as? String == metric {
                expected[day["day"] as? String ?? ""] = (day["sum"] as? Double) ?? (day["avg"] as? Double)
            }
            var drawn: [String: Double] = [:]
            for entry in charted where entry[0] as? String == metric {
                drawn[entry[1] as? String ?? ""] = entry[2] as? Double
            }
            #expect(!expected.isEmpty, "\(metric) has no days in the fixture")
            #expect(drawn.keys.sorted() == expected.keys.sorted(), "\(metric)")
            for (day, value) in expected {
                #expect(abs((drawn[day] ?? .nan) - value) <= 1e-9 * max(1, abs(value)), "\(metric) \(day)")
            }
        }
        let drawnNights = try #require(page["nights"] as? [[Any]])
        #expect(drawnNights.map { $0[0] as? String ?? "" } == nights.map { $0["night"] as? String ?? "" })
        #expect(
            zip(drawnNights, nights).allSatisfy {
                abs(
                    ($0.0[1] as? Double ?? -1) - ($0.1["asleepSeconds"] as? Double ?? $0.1["asleep_s"] as? Double ?? -2)
                ) < 1e-6
            })

        let summary = try object(result.standardOutput)
        #expect(summary["charted_days"] as? [String: Int] != nil)
        #expect(summary["workouts"] as? Int ?? 0 > 0)
    }

    @Test func theBrowserCheckCatchesARequestTheReportShouldNeverMake() throws {
        let fixture = try ExportFixture.shared.get()
        let path = directory.child("tampered.html")
        let result = try runner.run(["--store", fixture.store, "report", "--out", path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        // What a careless template change would do: fetch a font from the network.
        let html = try String(contentsOfFile: path, encoding: .utf8)
        try html.replacingOccurrences(
            of: "</body>", with: "<img src=\"http://127.0.0.1:9/font.png\" alt=\"\"></body>"
        ).write(toFile: path, atomically: true, encoding: .utf8)
        let page = try rendered(path)
        let requests = page["requests"] as? [String] ?? []
        let errors = page["console_errors"] as? [String] ?? []
        #expect(!requests.isEmpty || !errors.isEmpty)
        #expect(errors.contains { $0.contains("Content Security Policy") })
    }

    @Test func anEmptyStoreGivesAReportThatSaysSo() throws {
        let path = directory.child("empty.html")
        let result = try runner.run(["--store", directory.child("empty-store"), "report", "--out", path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.contains("No data in this range."))
        let page = try rendered(path)
        #expect(page["console_errors"] as? [String] == [])
        #expect((page["charted"] as? [Any])?.isEmpty == true)
    }
}
