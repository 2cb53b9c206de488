import Foundation
import HealthETLTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Running the servers for years, end to end on the built binary: Prometheus metrics on their own
/// port, JSON logs without secrets, request ids, draining on SIGTERM, online backups, and `doctor`.
@Suite(.serialized) struct OperationsTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-operations")
    static let token = "ops-token-0123456789abcdef0123"

    func tokens() -> (tokens: String, tokenFile: String) {
        let tokens = directory.child("tokens")
        let tokenFile = directory.child("token")
        for (path, text) in [(tokens, "me \(Self.token)\n"), (tokenFile, Self.token)] {
            _ = FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        }
        return (tokens, tokenFile)
    }

    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        let result = try runner.run(arguments)
        #expect(result.exitCode == 0, "\(arguments.prefix(3)): \(result.standardError)")
        return result
    }

    func request(
        _ port: Int, _ path: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:],
        token: String? = token
    ) async throws -> (Int, Data, HTTPURLResponse?) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, data, http)
    }

    /// The value of one series in a Prometheus text exposition, e.g. `healthetl_ingested_samples_total{outcome="stored"}`.
    static func value(_ series: String, in exposition: String) -> Double? {
        for line in exposition.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    /// The `healthetl_…` metrics a Grafana dashboard's Prometheus queries name (histograms by
    /// their family: `_bucket`, `_sum` and `_count` dropped).
    static func dashboardMetrics(_ json: String) throws -> Set<String> {
        let dashboard = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        let panels = dashboard["panels"] as? [[String: Any]] ?? []
        let templating = (dashboard["templating"] as? [String: Any])?["list"] as? [[String: Any]] ?? []
        let expressions =
            panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
            + templating.compactMap { $0["query"] as? String }
        var names: Set<String> = []
        for expression in expressions {
            var rest = Substring(expression)
            while let start = rest.range(of: "healthetl_") {
                let name = rest[start.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                var family = String(name)
                for suffix in ["_bucket", "_sum", "_count"] where family.hasSuffix(suffix) {
                    family.removeLast(suffix.count)
                }
                names.insert(family)
                rest = rest[name.endIndex...]
            }
        }
        return names
    }

    /// A batch of one step sample.
    static func batch(_ id: String, sample: String, value: Double) -> Data {
        Data(
            #"""
            {"batch_id":"\#(id)","samples":[{"id":"\#(sample)","metric":"step_count","source":"Watch",
            "start":"2026-01-05T10:00:00Z","end":"2026-01-05T10:10:00Z","value":\#(value)}],"deletions":[]}
            """#.utf8)
    }

    @Test func metricsCountWhatWasSentOnTheirOwnPortAndJSONLogsHoldNoSecret() async throws {
        let (tokens, tokenFile) = tokens()
        let metricsPort = try LoopbackPort.free()
        let (process, port, log) = try ListeningServer.start(
            runner,
            [
                "serve", "--port", "0", "--data", directory.child("data"), "--tokens", tokens, "--metrics-address",
                "127.0.0.1:\(metricsPort)", "--log-format", "json",
            ])
        defer { if process.isRunning { process.terminate() } }

        // An end-to-end upload of simulated days.
        let phone = directory.child("phone")
        _ = try run(["--store", phone, "simulate", "--days", "3", "--samples-per-day", "800", "--seed", "5"])
        let metricsFile = directory.child("upload.prom")
        let uploaded = try run([
            "--store", phone, "upload", "--endpoint", "http://127.0.0.1:\(port)", "--token-file", tokenFile,
            "--batch-size", "250", "--json", "--metrics-file", metricsFile,
        ])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(uploaded.standardOutput.utf8)) as? [String: Any])
        let delivered = try #require(report["delivered_batches"] as? Int)
        let accepted = try #require(report["accepted_items"] as? Int)
        #expect(delivered > 1)

        // One batch sent twice: the second is a duplicate. A refused value and a malformed body.
        for _ in 0..<2 {
            let (status, _, _) = try await request(
                port, "/v1/batches", method: "POST",
                body: Self.batch("resend-1", sample: "0123456789abcdef0123456789abcde1", value: 4321),
                headers: ["Idempotency-Key": "resend-1"])
            #expect(status == 200)
        }
        let (refused, _, _) = try await request(
            port, "/v1/batches", method: "POST",
            body: Self.batch("refuse-1", sample: "0123456789abcdef0123456789abcde2", value: -98765.4321),
            headers: ["Idempotency-Key": "refuse-1"])
        #expect(refused == 200)
        let (malformed, _, _) = try await request(
            port, "/v1/batches", method: "POST",
            body: Data(#"{"batch_id":"bad-1","samples":[{"value":98765.4321}"#.utf8),
            headers: ["Idempotency-Key": "bad-1"])
        #expect(malformed == 400)
        let (unauthorized, _, _) = try await request(port, "/v1/projections/extent", token: "wrong-token-0123456789")
        #expect(unauthorized == 401)
        // A request id is echoed, and one is made when none (or a hostile one) is sent.
        let (_, _, echoed) = try await request(port, "/v1/healthz", headers: ["X-Request-Id": "trace-42"])
        #expect(echoed?.value(forHTTPHeaderField: "X-Request-Id") == "trace-42")
        let (_, _, made) = try await request(port, "/v1/healthz", headers: ["X-Request-Id": "bad id with spaces"])
        #expect(made?.value(forHTTPHeaderField: "X-Request-Id")?.count == 16)

        let (scraped, body, _) = try await request(metricsPort, "/metrics", token: nil)
        #expect(scraped == 200)
        let metrics = String(decoding: body, as: UTF8.self)
        func stored(_ item: String, _ outcome: String) -> Double {
            Self.value("healthetl_ingested_\(item)_total{outcome=\"\(outcome)\"}", in: metrics) ?? -1
        }
        #expect(stored("batches", "stored") == Double(delivered + 2))
        #expect(stored("samples", "stored") + stored("deletions", "stored") == Double(accepted + 1))
        #expect(stored("batches", "duplicate") == 1)
        #expect(stored("samples", "duplicate") == 1)
        #expect(stored("samples", "rejected") == 1)
        #expect(stored("batches", "rejected") == 1)
        #expect(
            Self.value("healthetl_http_requests_total{route=\"/v1/batches\",code=\"400\"}", in: metrics) == 1)
        #expect(
            Self.value("healthetl_http_requests_total{route=\"/v1/projections/extent\",code=\"401\"}", in: metrics) == 1
        )
        #expect(metrics.contains("healthetl_database_commit_duration_seconds_count"))
        #expect(metrics.contains("healthetl_http_request_duration_seconds_bucket{route=\"/v1/batches\""))
        #expect(!metrics.contains("user") && !metrics.contains(Self.token))

        // The nightly run's textfile: the same figures as its report, readable by node_exporter.
        let textfile = try String(contentsOfFile: metricsFile, encoding: .utf8)
        #expect(
            Self.value("healthetl_cli_upload_batches{command=\"upload\",outcome=\"delivered\"}", in: textfile)
                == Double(delivered))
        #expect(
            Self.value("healthetl_cli_upload_items{command=\"upload\",outcome=\"accepted\"}", in: textfile)
                == Double(accepted))
        #expect(Self.value("healthetl_cli_last_run_success{command=\"upload\"}", in: textfile) == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: metricsFile)[.posixPermissions] as? Int
        #expect(mode == 0o644)

        // Every metric the operations dashboard queries is one the server or the CLI exports.
        let exported = Set(
            (metrics + textfile).split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map {
                String($0.split(separator: " ")[2])
            })
        let dashboard = try String(
            contentsOfFile: TestPaths.repository("Docs/grafana/dashboards/healthetl-operations.json"), encoding: .utf8)
        let queried = try Self.dashboardMetrics(dashboard)
        #expect(queried.count >= 10)
        #expect(queried.subtracting(exported).isEmpty, "not exported: \(queried.subtracting(exported).sorted())")

        // The metrics are only on their port, and their port serves only them.
        #expect(try await request(port, "/metrics").0 == 404)
        #expect(try await request(metricsPort, "/v1/healthz", token: nil).0 == 404)

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = log.finished().split(separator: "\n")
        #expect(lines.count >= 8)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["time"] is String && object?["level"] is String && object?["message"] is String, "\(line)")
            #expect(!line.contains(Self.token) && !line.contains("wrong-token") && !line.contains("98765"), "\(line)")
        }
        // A batch command's messages and its error are log objects too.
        let failed = try runner.run([
            "--store", directory.child("json-logs"), "--log-format", "json", "import", directory.child("missing.zip"),
        ])
        #expect(failed.exitCode != 0)
        let failureLines = failed.standardError.split(separator: "\n")
        #expect(!failureLines.isEmpty)
        for line in failureLines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["level"] is String, "\(line)")
        }
        #expect(failureLines.contains { $0.contains("\"level\":\"error\"") })
        let requestLines = lines.filter { $0.contains("\"request\"") }
        #expect(requestLines.contains { $0.contains("\"request_id\":\"trace-42\"") })
        #expect(
            requestLines.allSatisfy {
                $0.contains("\"route\"") && $0.contains("\"status\"") && $0.contains("\"duration_ms\"")
            })
    }
}

extension OperationsTests {
    @Test func sigtermDuringAStreamOfUploadsLeavesNoAnsweredBatchUncommittedAndNo5xx() async throws {
        let (tokens, _) = tokens()
        let arguments = [
            "serve", "--port", "0", "--data", directory.child("drain-data"), "--tokens", tokens, "--drain-timeout",
            "10m",
        ]
        let (process, port, _) = try ListeningServer.start(runner, arguments)
        defer { if process.isRunning { process.terminate() } }
        // A drain as long as a loaded machine may need (after it, requests are cancelled: 500).
        // Four clients upload one batch after another until the server is gone; the signal comes
        // once a few batches are in, however slowly a loaded machine runs them.
        let progress = AnswerCount()
        let answered = try await withThrowingTaskGroup(of: [(String, Int)].self) { group in
            for client in 0..<4 {
                group.addTask {
                    var answers: [(String, Int)] = []
                    for number in 0..<400 {
                        let id = "drain-\(client)-\(number)"
                        let sample = String(format: "%024x%08x", client + 1, number)
                        do {
                            let (status, _, _) = try await request(
                                port, "/v1/batches", method: "POST", body: Self.batch(id, sample: sample, value: 10),
                                headers: ["Idempotency-Key": id])
                            answers.append((id, status))
                            progress.add()
                        } catch {
                            break
                        }
                    }
                    return answers
                }
            }
            let deadline = Date().addingTimeInterval(60)
            while progress.count < 12 && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            kill(process.processIdentifier, SIGTERM)
            return try await group.reduce(into: []) { $0 += $1 }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(answered.count > 4, "too few batches were sent before the signal")
        #expect(answered.allSatisfy { $0.1 < 500 }, "\(answered.filter { $0.1 >= 500 })")

        // Every batch answered 200 was committed: sent again to the restarted server, it is a replay.
        let (again, againPort, _) = try ListeningServer.start(runner, arguments)
        defer { again.terminate() }
        for (id, status) in answered where status == 200 {
            let client = Int(id.split(separator: "-")[1])!
            let number = Int(id.split(separator: "-")[2])!
            let (replayStatus, _, response) = try await request(
                againPort, "/v1/batches", method: "POST",
                body: Self.batch(id, sample: String(format: "%024x%08x", client + 1, number), value: 10),
                headers: ["Idempotency-Key": id])
            #expect(
                replayStatus == 200 && response?.value(forHTTPHeaderField: "Idempotent-Replayed") == "true", "\(id)")
        }
    }

    @Test func aBackupTakenDuringAnImportIsACommitBoundaryTheImportResumesFrom() async throws {
        let export = directory.child("large.zip")
        _ = try run(["simulate", "--export", "apple-health", export, "--records", "250000", "--seed", "3"])
        let live = directory.child("live")
        let importing = Process()
        importing.executableURL = URL(fileURLWithPath: runner.executable)
        importing.arguments = ["--store", live, "import", export]
        importing.standardOutput = FileHandle.nullDevice
        importing.standardError = FileHandle.nullDevice
        try importing.run()
        defer { if importing.isRunning { importing.terminate() } }
        func samples(_ store: String) throws -> Int {
            let status = try run(["--store", store, "status", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
            return (object?["samples"] as? [String: Any])?["total"] as? Int ?? -1
        }
        // The first samples are committed (`status` reads beside the import once its store exists).
        let wal = live + "/healthetl.sqlite-wal"
        let started = Date()
        while importing.isRunning && Date().timeIntervalSince(started) < 120 {
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            if size > 0, try samples(live) > 0 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let copy = directory.child("copy") + "/"
        let backup = try run(["--store", live, "backup", "--out", copy, "--json"])
        #expect(importing.isRunning, "the import finished before the backup: the test proves nothing")
        let taken = try #require(
            try JSONSerialization.jsonObject(with: Data(backup.standardOutput.utf8)) as? [String: Any])
        #expect(taken["integrity"] as? String == "ok")
        let attributes = try FileManager.default.attributesOfItem(atPath: copy + "healthetl.sqlite")
        #expect((attributes[.posixPermissions] as? Int ?? 0) == 0o600)
        importing.waitUntilExit()
        #expect(importing.terminationStatus == 0)

        let complete = try samples(live)
        let partial = try samples(copy)
        #expect(partial > 0 && partial < complete, "backup \(partial), complete \(complete)")
        // The copy is a store as of one commit: the same import finishes it to the same contents.
        _ = try run(["--store", copy, "import", export])
        #expect(try samples(copy) == complete)
        let refused = try runner.run(["--store", live, "backup", "--out", copy])
        #expect(refused.exitCode == 1 && refused.standardError.contains("never replaces"))
    }
}

extension OperationsTests {
    /// A collector that answers the health check with its clock `skew` seconds off, and refuses
    /// every batch for good (422), so an upload leaves dead batches.
    static let fakeCollector = #"""
        import email.utils, http.server, sys, time
        skew = float(sys.argv[1])
        class Handler(http.server.BaseHTTPRequestHandler):
            def date_time_string(self, timestamp=None):
                return email.utils.formatdate(time.time() + skew, usegmt=True)
            def answer(self, status, body):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def do_GET(self):
                self.answer(200, b'{"status":"ok"}')
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.answer(422, b'{"error":"invalid_batch","message":"refused by the test"}')
            def log_message(self, *args):
                pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        print(f"fake collector on http://127.0.0.1:{server.server_port}", flush=True)
        server.serve_forever()
        """#

    func doctor(_ store: String, _ extra: [String]) throws -> (Int32, [String: [String: Any]]) {
        let result = try runner.run(["--store", store, "doctor", "--json"] + extra)
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let checks = (object?["checks"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", $0) }
        return (result.exitCode, Dictionary(checks) { first, _ in first })
    }

    @Test func doctorFindsEachPlantedFaultAndPassesAHealthyInstallation() async throws {
        let (tokens, tokenFile) = tokens()
        let store = directory.child("doctor-store")
        _ = try run(["--store", store, "simulate", "--days", "2", "--samples-per-day", "800", "--seed", "8"])

        // Healthy: a real collector, the token it knows.
        let (collector, port, _) = try ListeningServer.start(
            runner, ["serve", "--port", "0", "--data", directory.child("doctor-data"), "--tokens", tokens])
        defer { collector.terminate() }
        let healthy = try doctor(store, ["--endpoint", "http://127.0.0.1:\(port)", "--token-file", tokenFile])
        #expect(healthy.0 == 0, "\(healthy.1)")
        #expect(healthy.1["collector"]?["verdict"] as? String == "ok")
        #expect(healthy.1["clock"]?["verdict"] as? String == "ok")

        // A token the collector does not know.
        let stranger = directory.child("stranger-token")
        _ = FileManager.default.createFile(
            atPath: stranger, contents: Data("stranger-0123456789abcdef".utf8), attributes: [.posixPermissions: 0o600])
        let unknown = try doctor(store, ["--endpoint", "http://127.0.0.1:\(port)", "--token-file", stranger])
        #expect(unknown.0 == 1 && unknown.1["collector"]?["verdict"] as? String == "problem")

        // A collector whose clock is 10 minutes ahead, which refuses every batch: dead letters.
        let script = directory.child("fake-collector.py")
        try Self.fakeCollector.write(toFile: script, atomically: true, encoding: .utf8)
        let (fake, fakePort, _) = try ListeningServer.start(executable: "/usr/bin/env", ["python3", script, "600"])
        // SIGKILL: the test process blocks SIGTERM, and python inherits that mask and would never see it.
        defer {
            kill(fake.processIdentifier, SIGKILL)
            fake.waitUntilExit()
        }
        let endpoint = "http://127.0.0.1:\(fakePort)"
        _ = try runner.run(["--store", store, "upload", "--endpoint", endpoint, "--token-file", tokenFile])
        let skewed = try doctor(store, ["--endpoint", endpoint, "--token-file", tokenFile])
        #expect(skewed.0 == 1)
        #expect(skewed.1["clock"]?["verdict"] as? String == "problem")
        let clockDetail = skewed.1["clock"]?["detail"] as? String ?? ""
        #expect(clockDetail.contains("ahead"))
        #expect(skewed.1["retry queue"]?["verdict"] as? String == "problem")
        let queueFix = skewed.1["retry queue"]?["fix"] as? String ?? ""
        #expect(queueFix.contains("queue"))

        // A token file others can read.
        chmod(tokenFile, 0o644)
        let loose = try doctor(store, ["--endpoint", "http://127.0.0.1:\(port)", "--token-file", tokenFile])
        #expect(loose.0 == 1)
        #expect(loose.1["token file"]?["fix"] as? String == "chmod 600 \(tokenFile)")

        // A damaged page in the middle of a store.
        // A backup is one file, with no write-ahead log whose newer pages could hide the damage.
        let simulated = directory.child("to-damage")
        _ = try run(["--store", simulated, "simulate", "--days", "6", "--samples-per-day", "800", "--seed", "9"])
        // The same token file given without an endpoint (none in that store's config either).
        let alone = try doctor(simulated, ["--token-file", tokenFile])
        #expect(alone.0 == 1, "a 0644 token file given alone got: \(alone.1)")
        #expect(alone.1["token file"]?["fix"] as? String == "chmod 600 \(tokenFile)")
        let damaged = directory.child("damaged-store")
        _ = try run(["--store", simulated, "backup", "--out", damaged + "/"])
        let file = try #require(FileHandle(forUpdatingAtPath: damaged + "/healthetl.sqlite"))
        let pages = Int(try file.seekToEnd() / 4096)
        let step = max(1, pages / 16)
        for page in stride(from: pages / 4, to: pages * 3 / 4, by: step) {
            try file.seek(toOffset: UInt64(page * 4096))
            file.write(Data(repeating: 0xA5, count: 4096))
        }
        try file.close()
        let broken = try doctor(damaged, [])
        #expect(broken.0 == 1)
        #expect(broken.1["store"]?["verdict"] as? String == "problem", "\(broken.1)")
    }
}
