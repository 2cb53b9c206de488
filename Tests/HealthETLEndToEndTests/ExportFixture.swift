import Foundation
import HealthETLTestSupport

/// One store for the export and report tests, built once with the binary: 40 simulated days
/// (two sources, blood-pressure panels, workouts, sleep, some implausible values) and the bundled
/// Apple Health sample. It lives in .build/e2e-export-fixture, replaced by each run (a shared
/// fixture has no moment to be removed, so it is kept where the next run finds it).
struct ExportFixture: Sendable {
    let store: String
    /// The simulated days (local).
    let from = "2025-11-22"
    let to = "2025-12-31"

    static let shared: Result<ExportFixture, any Error> = Result { try ExportFixture() }

    private init() throws {
        let directory = TestPaths.repository(".build/e2e-export-fixture")
        try? FileManager.default.removeItem(atPath: directory)
        store = directory + "/store"
        let runner = CommandRunner()
        for arguments in [
            ["simulate", "--days", "40", "--seed", "3", "--origin", "2026-01-01", "--out-of-range", "0.01"],
            ["import", TestPaths.repository("SampleExports/apple-health-sample.zip")],
        ] {
            let result = try runner.run(["--store", store] + arguments)
            guard result.exitCode == 0 else { throw FixtureError(command: arguments, output: result.standardError) }
        }
    }

    /// `projections --local --json` over the simulated days: what the daily export and the report
    /// must show.
    func projections() throws -> (days: [[String: Any]], nights: [[String: Any]]) {
        let result = try CommandRunner().run([
            "--store", store, "projections", "--local", "--json", "--from", from, "--to", to,
        ])
        guard result.exitCode == 0,
            let listing = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            let days = listing["days"] as? [[String: Any]], let nights = listing["nights"] as? [[String: Any]]
        else { throw FixtureError(command: ["projections", "--local"], output: result.standardError) }
        return (days, nights)
    }

    struct FixtureError: Error, CustomStringConvertible {
        var command: [String]
        var output: String
        var description: String { "\(command.joined(separator: " ")) failed: \(output)" }
    }
}

/// RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks.
enum CSVRows {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text.unicodeScalars)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        field.unicodeScalars.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                row.append(field)
                field = ""
            } else if character == "\r", characters.first == "\n" {
                characters.removeFirst()
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.unicodeScalars.append(character)
            }
        }
        if !field.isEmpty || !row.isEmpty { rows.append(row + [field]) }
        return rows
    }
}
