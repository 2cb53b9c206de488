import Foundation
import HealthETLTestSupport
import Testing

/// Runs the built `healthetl` binary as a user would and checks its output and exit codes.
@Suite struct CommandLineTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-e2e")

    func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// The executable allocates with jemalloc (CJemalloc), which prints its statistics at exit
    /// when asked to; glibc's allocator ignores the setting.
    @Test func theAllocatorIsJemalloc() throws {
        let result = try runner.run(["--version"], environment: ["MALLOC_CONF": "stats_print:true"])
        #expect(result.exitCode == 0)
        #expect(result.standardError.contains("Begin jemalloc statistics"))
        // Its settings are the executable's (CJemallocSettings): freed pages kept two seconds.
        #expect(result.standardError.contains("opt.dirty_decay_ms: 2000"))
        #expect(!(try runner.run(["--version"]).standardError.contains("jemalloc")))
    }

    @Test func metricsJSONListsTheCatalog() throws {
        let result = try runner.run(["metrics", "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let report = try json(result.standardOutput)
        let metrics = try #require(report["metrics"] as? [[String: Any]])
        #expect(metrics.count >= 45)
        #expect(report["count"] as? Int == metrics.count)
        for metric in metrics {
            let id = metric["id"] as? String ?? "?"
            #expect((metric["kind"] as? String)?.isEmpty == false, "\(id) has no kind")
            // A panel reports through its components: a meal's (g, kcal, L) share no unit.
            if metric["aggregation"] as? String != "panel" {
                #expect((metric["unit"] as? String)?.isEmpty == false, "\(id) has no unit")
            }
            // Every entry has its source names and codes, empty or null where there are none.
            for key in ["healthkit", "health_connect", "hae", "loinc", "ucum"] {
                #expect(metric.keys.contains(key), "\(id) has no \(key)")
            }
        }
        let heartRate = try #require(metrics.first { $0["id"] as? String == "heart_rate" })
        #expect(heartRate["unit"] as? String == "/min")
        #expect(heartRate["ucum"] as? String == "/min")
        #expect(heartRate["loinc"] as? String == "8867-4")
        #expect(heartRate["healthkit"] as? [String] == ["HKQuantityTypeIdentifierHeartRate"])
        let connect = try #require((heartRate["health_connect"] as? [[String: Any]])?.first)
        #expect(connect["record"] as? String == "HeartRateRecord")
        #expect(
            ((heartRate["hae"] as? [[String: Any]])?.compactMap { $0["name"] as? String })?.contains("heart_rate")
                == true)
        #expect((heartRate["accepted_units"] as? [String: Any])?["count/min"] != nil)
    }

    @Test func pluginsListsEverySourceAndSinkByName() throws {
        let result = try runner.run(["plugins", "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let plugins = try #require(object["plugins"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: plugins.map { ($0["name"] as? String ?? "?", $0) })
        #expect(byName["apple_health"]?["kind"] as? String == "source")
        #expect(byName["apple_health"]?["capabilities"] as? [String] == ["exports", "resumable"])
        #expect(byName["synthetic"]?["kind"] as? String == "source")
        #expect(byName["collector"]?["kind"] as? String == "sink")
        #expect(byName["collector"]?["config_section"] as? String == "sinks.collector")
        #expect(
            byName["collector"]?["capabilities"] as? [String] == [
                "deletions", "projections", "source_priority", "change_feed",
            ])
        for plugin in plugins {
            #expect((plugin["summary"] as? String)?.isEmpty == false)
        }
        let table = try runner.run(["plugins"])
        #expect(table.standardOutput.contains("apple_health") && table.standardOutput.contains("sinks.collector"))
    }

    @Test func importNamesAnUnknownSourceAsAUsageError() throws {
        let export = TestPaths.repository("SampleExports/apple-health-sample.zip")
        let unknown = try runner.run(["--store", directory.child("s"), "import", export, "--source", "fitbit"])
        #expect(unknown.exitCode == 2)
        #expect(unknown.standardError.contains("no source named fitbit"), "\(unknown.standardError)")
        let live = try runner.run(["--store", directory.child("s"), "import", export, "--source", "synthetic"])
        #expect(live.exitCode == 2)
        #expect(live.standardError.contains("healthetl simulate"), "\(live.standardError)")
    }

    @Test func statusOnANewStoreReportsNothingAndKeepsFilesPrivate() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let store = directory.child("fresh")
        let result = try runner.run(["--store", store, "status", "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let status = try json(result.standardOutput)
        let samples = try #require(status["samples"] as? [String: Any])
        #expect(samples["total"] as? Int == 0)
        #expect((status["cursors"] as? [Any])?.isEmpty == true)
        #expect((status["quarantine"] as? [String: Any])?["total"] as? Int == 0)
        #expect((status["tombstones"] as? [String: Any])?["total"] as? Int == 0)
        // Before the first upload the last one is null, and the table says never.
        let queue = try #require(status["queue"] as? [String: Any])
        #expect(queue.keys.contains("last_upload"))
        #expect(queue["last_upload"] is NSNull)
        let table = try runner.run(["--store", store, "status"])
        #expect(table.standardOutput.contains("last upload never"), "\(table.standardOutput)")
        #expect(!table.standardOutput.contains("1970"))
        #expect(try mode(store) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: store)
        #expect(files.contains("healthetl.sqlite"))
        for file in files {
            #expect(try mode(store + "/" + file) == 0o600, "\(file)")
        }
    }

    @Test func storeComesFromTheEnvironmentWhenNotGiven() throws {
        let home = directory.child("from-env")
        let result = try runner.run(["status", "--json"], environment: ["HEALTHETL_HOME": home])
        #expect(result.exitCode == 0)
        #expect(try json(result.standardOutput)["store"] as? String == home)
    }

    @Test(arguments: [
        ["metrics", "--no-such-flag"],
        ["no-such-command"],
        ["status", "extra-argument"],
        ["--store"],
    ])
    func usageErrorsExitWithTwo(arguments: [String]) throws {
        let result = try runner.run(arguments)
        #expect(result.exitCode == 2, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains("Usage") || result.standardError.contains("Error"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func helpAndVersionSucceed() throws {
        let help = try runner.run(["--help"])
        #expect(help.exitCode == 0)
        #expect(help.standardOutput.contains("status"))
        let version = try runner.run(["--version"])
        #expect(version.exitCode == 0)
        #expect(version.standardOutput.contains("SQLite 3."))
    }

    @Test func worldReadableStoreFailsWithTheFix() throws {
        let store = directory.child("exposed")
        #expect(try runner.run(["--store", store, "status"]).exitCode == 0)
        chmod(store + "/healthetl.sqlite", 0o644)
        let result = try runner.run(["--store", store, "status"])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("chmod 600"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func badCatalogFileFailsNamingTheEntry() throws {
        let file = directory.child("extra.json")
        let text = #"{"format": 1, "metrics": [{"id": "x", "kind": "sideways", "aggregation": "sum"}]}"#
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try runner.run(["metrics", "--catalog", file])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains(file))
        #expect(result.standardError.contains("metrics[0].kind"))
    }

    @Test func catalogFileAddsAMetric() throws {
        let file = directory.child("extra.json")
        let text = """
            {"format": 1, "metrics": [{"id": "grip_strength", "name": "Grip strength",
              "kind": "discrete", "aggregation": "statistics", "unit": "kg", "unit_set": "mass"}]}
            """
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try runner.run(["--catalog", file, "metrics", "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let metrics = try #require(try json(result.standardOutput)["metrics"] as? [[String: Any]])
        #expect(metrics.contains { $0["id"] as? String == "grip_strength" && $0["unit"] as? String == "kg" })
    }
}
