import Foundation
import HealthETLSQLite
import HealthETLStore
import HealthETLTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `healthetl upload`, `sync --catch-up`, `queue`, `status` and `projections` as a user runs them,
/// against `healthetl serve` on a loopback port (reliability U3, P2).
@Suite(.serialized) struct UploadCommandTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-upload")
    static let token = "e2e-upload-token-0123456789abcdef"

    /// `healthetl serve` on a free port; its output goes to files (a pipe nobody drains would
    /// stall it once the access log fills the pipe's buffer).
    final class Server {
        let process = Process()
        let port: Int
        let dataDirectory: String
        var url: String { "http://127.0.0.1:\(port)" }

        init(runner: CommandRunner, directory: TemporaryDirectory) throws {
            let tokens = directory.child("tokens")
            _ = FileManager.default.createFile(
                atPath: tokens, contents: Data("me \(UploadCommandTests.token)\n".utf8),
                attributes: [.posixPermissions: 0o600])
            dataDirectory = directory.child("collector")
            let output = directory.child("serve.out")
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            _ = FileManager.default.createFile(atPath: directory.child("serve.err"), contents: nil)
            process.executableURL = URL(fileURLWithPath: runner.executable)
            process.arguments = ["serve", "--port", "0", "--data", dataDirectory, "--tokens", tokens]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = try FileHandle(
                forWritingTo: URL(fileURLWithPath: directory.child("serve.err")))
            try process.run()
            var port: Int?
            for _ in 0..<200 where port == nil {
                let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first(where: {
                    $0.contains("listening on http://127.0.0.1:")
                }) {
                    port = line.split(separator: ":").dropFirst(2).first.flatMap {
                        Int($0.prefix { $0.isNumber })
                    }
                } else {
                    usleep(50_000)
                }
            }
            guard let port else {
                process.terminate()
                throw POSIXError(.ETIMEDOUT)
            }
            self.port = port
        }

        /// SIGTERM, then SIGKILL if it has not stopped within 10 s.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGTERM)
            for _ in 0..<200 where process.isRunning { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    func tokenFile(mode: Int, token: String = Self.token, name: String = "token") -> String {
        let path = directory.child("\(name)-\(String(mode, radix: 8))")
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(token.utf8), attributes: [.posixPermissions: mode])
        return path
    }

    struct Output {
        var exitCode: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs the binary like `CommandRunner.run`, but killed (and the test failed) if it takes
    /// longer than `seconds`; output goes through files, so nothing can block on a full pipe.
    func healthetl(
        _ arguments: [String], seconds: Double = 120, sourceLocation: SourceLocation = #_sourceLocation
    ) throws
        -> Output
    {
        let name = UUID().uuidString
        let (output, errors) = (directory.child("\(name).out"), directory.child("\(name).err"))
        for path in [output, errors] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runner.executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record(
                "healthetl \(arguments.joined(separator: " ")) did not finish within \(seconds) s",
                sourceLocation: sourceLocation)
        }
        process.waitUntilExit()
        return Output(
            exitCode: process.terminationStatus,
            standardOutput: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
    }

    func json(_ result: Output) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))) as? [String: Any] ?? [:]
    }

    /// What a sample row holds, as both databases store it.
    struct Row: Hashable {
        let start: Int64
        let end: Int64
        let value: Double?
        let category: String?
    }

    /// id (hex) → row, from a store's or the collector's `samples` table.
    static func samples(database: String) throws -> [String: Row] {
        let connection = try SQLiteConnection(path: database)
        let statement = try connection.prepare(
            "SELECT hex(id), start_ms, end_ms, value, category FROM samples")
        var rows: [String: Row] = [:]
        while try statement.step() {
            rows[statement.text(0) ?? ""] = Row(
                start: statement.int64(1), end: statement.int64(2),
                value: statement.isNull(3) ? nil : statement.double(3),
                category: statement.text(4))
        }
        return rows
    }

    static func column(_ sql: String, database: String) throws -> Set<String> {
        let statement = try SQLiteConnection(path: database).prepare(sql)
        var values: Set<String> = []
        while try statement.step() { values.insert(statement.text(0) ?? "") }
        return values
    }

    static func count(_ sql: String, database: String) throws -> Int {
        Int(try SQLiteConnection(path: database).scalar(sql) ?? -1)
    }

    static func close(_ a: Any?, _ b: Any?) -> Bool {
        switch (a as? Double, b as? Double) {
        case (nil, nil): return (a == nil || a is NSNull) && (b == nil || b is NSNull)
        case (let x?, let y?): return x == y || abs(x - y) <= 1e-6 * max(abs(x), abs(y))
        default: return false
        }
    }

    /// An export with `hot` HRV readings in the 7 days before its date (tier 1) and `cold` heart
    /// rates months before.
    func tierOneExport(hot: Int, cold: Int) throws -> String {
        var builder = ExportXMLBuilder(exportDate: "2024-06-01 09:00:00 +0200")
        builder.addHeartRates(0..<cold)
        for index in 0..<hot {
            let date = "2024-05-3\(index % 2) 0\(index % 10):1\(index % 6):00 +0200"
            builder.add(
                "<Record type=\"HKQuantityTypeIdentifierHeartRateVariabilitySDNN\" sourceName=\"Simon’s Apple Watch\""
                    + " unit=\"ms\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(40 + index)\"/>")
        }
        let path = directory.child("tier-one-\(hot)-\(cold).xml")
        try builder.write(to: path)
        return path
    }

    /// Tier 1 on import: with a collector configured, the hot tier-1 samples are on it when
    /// `import` returns, without `upload`; `upload` then sends the rest and not them again.
    @Test func hotTierOneSamplesReachTheCollectorWithoutUpload() throws {
        let server = try Server(runner: runner, directory: directory)
        defer { server.stop() }
        let store = directory.child("tier-one")
        let token = tokenFile(mode: 0o600)
        let configure = try healthetl([
            "--store", store, "upload", "--endpoint", server.url, "--token-file", token, "--save-config",
        ])
        #expect(configure.exitCode == 0, "\(configure.standardError)")

        let imported = try healthetl(["--store", store, "import", try tierOneExport(hot: 12, cold: 300), "--json"])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        let summary = json(imported)
        #expect((summary["lanes"] as? [String: Int])?["hot"] == 12)
        #expect(summary["tier1_sent"] as? Int == 12, "\(summary) \(imported.standardError)")
        let remote = server.dataDirectory + "/healthetl.sqlite"
        #expect(try Self.column("SELECT count(*) FROM samples", database: remote) == ["12"])

        let upload = try healthetl(["--store", store, "upload", "--json"])
        #expect(upload.exitCode == 0, "\(upload.standardError)")
        #expect(json(upload)["queued_samples"] as? Int == 300, "tier 1's samples were queued again: \(json(upload))")
        #expect(try Self.column("SELECT count(*) FROM samples", database: remote) == ["312"])
    }

    /// Tier 1 while following: each hot commit wakes the sender, so the hot lane's tier-1
    /// samples are on the collector when `simulate --follow` ends, without `upload`.
    @Test func followingSendsTierOneAsItCommits() throws {
        let server = try Server(runner: runner, directory: directory)
        defer { server.stop() }
        let store = directory.child("tier-one-follow")
        let token = tokenFile(mode: 0o600)
        let saved = try healthetl([
            "--store", store, "upload", "--endpoint", server.url, "--token-file", token, "--save-config",
        ])
        #expect(saved.exitCode == 0, "\(saved.standardError)")
        let followed = try healthetl([
            "--store", store, "simulate", "--follow", "--days", "1", "--seed", "5", "--origin", "2026-03-01T06:00:00Z",
            "--speed", "7200", "--until", "2026-03-01T14:00:00Z", "--json",
        ])
        #expect(followed.exitCode == 0, "\(followed.standardError)")
        #expect(followed.standardError.contains("Real-time upload (tier 1)"), "\(followed.standardError)")
        let tierOne = """
            SELECT hex(s.id) FROM samples AS s JOIN metrics AS m ON m.id = s.metric_id WHERE s.lane = 0 AND m.name IN
            ('resting_heart_rate', 'heart_rate_variability_sdnn', 'apple_exercise_time', 'sleep_analysis', 'ecg')
            """
        let local = try Self.column(tierOne, database: store + "/healthetl.sqlite")
        #expect(!local.isEmpty)
        let remote = try Self.column(
            "SELECT hex(id) FROM samples", database: server.dataDirectory + "/healthetl.sqlite")
        #expect(
            local.isSubset(of: remote), "\(local.subtracting(remote).count) tier-1 samples did not reach the collector")
    }

    /// Tier 1 with the collector away: three quick tries (0, 1 and 3 s), then the batch waits in
    /// the queue at tier 1, and the import itself succeeds.
    @Test func tierOneTriesThreeTimesThenLeavesTheBatchToTheQueue() throws {
        let store = directory.child("tier-one-down")
        let token = tokenFile(mode: 0o600)
        var closed = 0
        do {
            let listener = try FaultInjectingServer(script: [])
            closed = listener.port
            listener.stop()
        }
        let saved = try healthetl([
            "--store", store, "upload", "--endpoint", "http://127.0.0.1:\(closed)", "--token-file", token,
            "--save-config",
        ])
        #expect(saved.exitCode == 0, "\(saved.standardError)")
        let imported = try healthetl(["--store", store, "import", try tierOneExport(hot: 4, cold: 10), "--json"])
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        #expect(json(imported)["tier1_sent"] as? Int == 0)
        #expect(imported.standardError.contains("0 delivered, 3 failed attempts"), "\(imported.standardError)")
        let queue = json(try healthetl(["--store", store, "queue", "--json"]))
        let batches = queue["batches"] as? [[String: Any]] ?? []
        #expect(batches.count == 1, "\(queue)")
        #expect(batches.first?["tier"] as? Int == 1)
        #expect(batches.first?["attempts"] as? Int == 1)
        #expect(batches.first?["state"] as? String == "failed")
        #expect(batches.first?["samples"] as? Int == 4)
    }

    /// U3, the oracle: uploads killed with SIGKILL at random moments, then a catch-up, leave on
    /// the collector exactly the store's samples (same ids, same payloads, once each), none of
    /// its deleted ones, and the collector's projections equal the ones computed here.
    @Test func killedUploadsThenACatchUpLeaveExactlyTheLocalDataOnTheCollector() throws {
        let server = try Server(runner: runner, directory: directory)
        defer { server.stop() }
        let store = directory.child("store")
        let local = store + "/healthetl.sqlite"
        let remote = server.dataDirectory + "/healthetl.sqlite"
        let simulated = try healthetl([
            "--store", store, "simulate", "--days", "20", "--samples-per-day", "5000", "--changes-per-day",
            "4", "--seed", "20261121",
            "--origin", "2026-01-21", "--json",
        ])
        #expect(simulated.exitCode == 0, "\(simulated.standardError)")
        let deleted = try Self.column("SELECT hex(sample_id) FROM tombstones", database: local)
        #expect(deleted.count > 20, "the simulation should delete and edit samples")
        let token = tokenFile(mode: 0o600)
        let upload = [
            "--store", store, "upload", "--endpoint", server.url, "--token-file", token, "--batch-size",
            "500",
        ]

        var random = SeededGenerator(seed: 3_141_592)
        var kills = 0
        var delivered = 0
        // At least ten kills, and until some batches got through (a loaded machine starts slowly).
        for _ in 0..<30 where kills < 10 || delivered == 0 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: runner.executable)
            process.arguments = upload
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(3_000 + random.next() % 400_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            // Nothing reaches the collector that the store does not hold.
            let onCollector = try Self.column("SELECT hex(id) FROM samples", database: remote)
            let inStore = try Self.column("SELECT hex(id) FROM samples", database: local)
            delivered = onCollector.count
            let strays = onCollector.subtracting(inStore).count
            #expect(strays == 0, "\(strays) samples on the collector that the store does not hold")
        }
        #expect(kills >= 8, "the uploads finished too fast to be killed mid-way; make the store larger")
        let midway = try Self.count("SELECT count(*) FROM samples", database: remote)
        let total = try Self.count("SELECT count(*) FROM samples", database: local)
        #expect(midway > 0 && midway < total, "killed uploads delivered \(midway) of \(total) samples")

        let sync = try healthetl([
            "--store", store, "sync", "--catch-up", "--since", "3650d", "--max-wait", "60s", "--endpoint",
            server.url, "--token-file",
            token, "--batch-size", "500", "--json",
        ])
        #expect(sync.exitCode == 0, "\(sync.standardError)")
        let report = json(sync)
        #expect(
            report["waiting_batches"] as? Int == 0 && report["dead_batches"] as? Int == 0,
            "\(sync.standardOutput.prefix(2000))")
        #expect(report["rejected_items"] as? Int == 0)

        let queue = json(try healthetl(["--store", store, "queue", "--json"]))
        let counts = queue["counts"] as? [String: Int] ?? [:]
        #expect(
            counts["pending"] == 0 && counts["in_flight"] == 0 && counts["failed"] == 0
                && counts["dead"] == 0, "\(counts)")
        #expect(try Store(directory: StoreDirectory(path: store)).integrityCheck() == ["ok"])

        let mine = try Self.samples(database: local)
        let theirs = try Self.samples(database: remote)
        #expect(mine.count == total && mine.count > 90_000)
        #expect(try Self.count("SELECT count(*) FROM samples", database: remote) == mine.count)
        let missing = Set(mine.keys).subtracting(theirs.keys)
        let extra = Set(theirs.keys).subtracting(mine.keys)
        #expect(
            missing.isEmpty && extra.isEmpty,
            "\(missing.count) local samples missing on the collector, \(extra.count) extra there")
        let differing = mine.filter { theirs[$0.key] != $0.value }.count
        #expect(differing == 0, "\(differing) samples differ between the store and the collector")
        #expect(deleted.isDisjoint(with: theirs.keys))
        #expect(deleted.isSubset(of: try Self.column("SELECT hex(id) FROM deletions", database: remote)))

        // The collector's projections (refreshed into the store by the sync) equal the local ones.
        let range = ["--from", "2025-12-30", "--to", "2026-01-22", "--json"]
        let fetched = try healthetl(["--store", store, "projections"] + range)
        let computed = try healthetl(["--store", store, "projections", "--local"] + range)
        #expect(fetched.exitCode == 0 && computed.exitCode == 0)
        func days(_ result: Output) -> [String: [String: Any]] {
            let rows = json(result)["days"] as? [[String: Any]] ?? []
            return Dictionary(
                rows.map { ("\($0["metric"] ?? "") \($0["day"] ?? "")", $0) },
                uniquingKeysWith: { first, _ in first })
        }
        let collectorDays = days(fetched)
        let localDays = days(computed)
        #expect(localDays.count > 200)
        let onlyLocal = Set(localDays.keys).subtracting(collectorDays.keys).sorted()
        let onlyCollector = Set(collectorDays.keys).subtracting(localDays.keys).sorted()
        #expect(
            onlyLocal.isEmpty && onlyCollector.isEmpty,
            "only here: \(onlyLocal.prefix(5)); only the collector's: \(onlyCollector.prefix(5))")
        #expect(collectorDays.values.allSatisfy { $0["freshness"] as? String == "fresh" })
        var mismatches: [String] = []
        for (key, mine) in localDays {
            guard let theirs = collectorDays[key] else { continue }
            for field in ["sum", "avg", "min", "max", "count"] where !Self.close(mine[field], theirs[field]) {
                mismatches.append(
                    "\(key) \(field): local \(mine[field] ?? "nil"), collector \(theirs[field] ?? "nil")")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        func nights(_ result: Output) -> [String: [String: Any]] {
            let rows = json(result)["nights"] as? [[String: Any]] ?? []
            return Dictionary(
                rows.map { ("\($0["night"] ?? "")", $0) }, uniquingKeysWith: { first, _ in first })
        }
        let collectorNights = nights(fetched)
        let localNights = nights(computed)
        #expect(localNights.count >= 15)
        #expect(
            Set(collectorNights.keys) == Set(localNights.keys),
            "\(collectorNights.keys.sorted()) vs \(localNights.keys.sorted())")
        for (night, mine) in localNights {
            for field in ["in_bed_s", "asleep_s", "deep_s", "rem_s", "awake_s"]
            where !Self.close(mine[field], collectorNights[night]?[field]) {
                mismatches.append(
                    "night \(night) \(field): local \(mine[field] ?? "nil"), collector \(collectorNights[night]?[field] ?? "nil")"
                )
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// Exit codes and the queue commands: 3 with the collector down (batches failed), `queue
    /// retry`; a token the collector refuses stops the run (exit 1, saying to fix the token) and
    /// strands nothing: `sync --catch-up` with the right token delivers every batch, exit 0;
    /// `status --json` counts the queue.
    @Test func exitCodesAndTheQueueCommands() throws {
        let server = try Server(runner: runner, directory: directory)
        defer { server.stop() }
        let store = directory.child("small")
        let simulated = try healthetl([
            "--store", store, "simulate", "--days", "3", "--seed", "11", "--origin", "2026-01-21",
        ])
        #expect(simulated.exitCode == 0, "\(simulated.standardError)")
        let token = tokenFile(mode: 0o600)

        // A port nothing listens on any more.
        var closed = 0
        do {
            let listener = try FaultInjectingServer(script: [])
            closed = listener.port
            listener.stop()
        }
        usleep(300_000)
        let down = try healthetl([
            "--store", store, "upload", "--endpoint", "http://127.0.0.1:\(closed)", "--token-file", token,
            "--batch-size", "500",
        ])
        #expect(down.exitCode == 3, "\(down.standardOutput) \(down.standardError)")
        #expect(down.standardError.contains("wait for a retry"))
        let failedQueue = json(try healthetl(["--store", store, "queue", "--json"]))
        let failedCounts = failedQueue["counts"] as? [String: Int] ?? [:]
        let batches = failedQueue["batches"] as? [[String: Any]] ?? []
        let queued = failedCounts["failed"] ?? 0
        #expect(queued > 2 && failedCounts["done"] == 0 && failedCounts["pending"] == 0, "\(failedQueue)")
        #expect(
            batches.count == queued
                && batches.allSatisfy { $0["state"] as? String == "failed" && $0["attempts"] as? Int == 1 })
        #expect(
            batches.allSatisfy {
                $0["next_attempt"] is String && ($0["last_error"] as? String)?.isEmpty == false
            })
        let status =
            json(try healthetl(["--store", store, "status", "--json"]))["queue"] as? [String: Any] ?? [:]
        #expect(status["failed"] as? Int == queued && status["done"] as? Int == 0, "\(status)")

        // `queue retry ID` makes each ready now; a token the collector refuses leaves them waiting.
        for batch in batches {
            let retried = try healthetl([
                "--store", store, "queue", "retry", batch["batch_id"] as? String ?? "", "--json",
            ])
            #expect(
                retried.exitCode == 0 && json(retried)["retried"] as? Int == 1, "\(retried.standardError)")
        }
        let wrong = "wrong-token-0123456789abcdef01234"
        let refused = try healthetl([
            "--store", store, "upload", "--endpoint", server.url, "--token-file",
            tokenFile(mode: 0o600, token: wrong, name: "wrong-token"),
        ])
        #expect(refused.exitCode == 1)
        #expect(refused.standardError.contains("HTTP 401") && refused.standardError.contains("fix the token"))
        #expect(!refused.standardOutput.contains(wrong) && !refused.standardError.contains(wrong))
        let refusedQueue = json(try healthetl(["--store", store, "queue", "--json"]))
        let refusedCounts = refusedQueue["counts"] as? [String: Int] ?? [:]
        #expect(refusedCounts["dead"] == 0 && refusedCounts["done"] == 0, "\(refusedQueue)")
        #expect((refusedCounts["failed"] ?? 0) + (refusedCounts["pending"] ?? 0) == queued, "\(refusedQueue)")
        #expect(
            (refusedQueue["batches"] as? [[String: Any]] ?? []).contains {
                ($0["last_error"] as? String)?.contains("HTTP 401") == true
            })
        #expect(!(try healthetl(["--store", store, "queue"])).standardOutput.contains(wrong))

        // No sample is in the window: the queue alone delivers them (the window re-sends deletions).
        let delivered = try healthetl([
            "--store", store, "sync", "--catch-up", "--since", "0s", "--endpoint", server.url, "--token-file", token,
            "--json",
        ])
        #expect(delivered.exitCode == 0, "\(delivered.standardError)")
        let resent = json(delivered)["queued_batches"] as? Int ?? -1
        #expect(json(delivered)["delivered_batches"] as? Int == queued + resent)
        let final =
            json(try healthetl(["--store", store, "status", "--json"]))["queue"] as? [String: Any] ?? [:]
        #expect(
            final["done"] as? Int == queued + resent && final["failed"] as? Int == 0 && final["dead"] as? Int == 0,
            "\(final)")
        #expect(
            final["pending"] as? Int == 0 && final["in_flight"] as? Int == 0 && final["last_upload"] is String
        )
        #expect(
            try Self.count(
                "SELECT count(*) FROM samples", database: server.dataDirectory + "/healthetl.sqlite")
                == Self.count("SELECT count(*) FROM samples", database: store + "/healthetl.sqlite"))

        // Nothing left: a further run is a clean 0.
        let again = try healthetl([
            "--store", store, "upload", "--endpoint", server.url, "--token-file", token,
        ])
        #expect(again.exitCode == 0, "\(again.standardError)")
    }

    /// P2: a token file others can read is refused before anything is sent, with the fix and
    /// without the token.
    @Test func aTokenFileOthersCanReadIsRefused() throws {
        let store = directory.child("private")
        let simulated = try healthetl(["--store", store, "simulate", "--days", "1", "--seed", "5"])
        #expect(simulated.exitCode == 0)
        let result = try healthetl([
            "--store", store, "upload", "--endpoint", "http://127.0.0.1:9", "--token-file",
            tokenFile(mode: 0o644),
        ])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("chmod 600"))
        #expect(!result.standardError.contains(Self.token) && !result.standardOutput.contains(Self.token))
        let queue = json(try healthetl(["--store", store, "queue", "--json", "--all"]))
        #expect((queue["counts"] as? [String: Int] ?? [:]).values.allSatisfy { $0 == 0 }, "\(queue)")
    }
}
