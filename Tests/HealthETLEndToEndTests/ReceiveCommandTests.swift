import Foundation
import HealthETLTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `healthetl receive` as Health Auto Export's REST automation meets it: the built binary on a
/// loopback port, pushes with and without the token, resends, gzip, malformed bodies, and a
/// server killed after it committed a push but before it answered.
@Suite(.serialized) struct ReceiveCommandTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-receive")
    static let token = "receive-token-0123456789abcdef0123"
    static let stream = "health_auto_export:iphone"

    /// A generated push (one phone's days, without the envelope, as pushes come) and its record count.
    func push(days: Int = 2) throws -> (Data, records: Int) {
        let path = directory.child("push-\(days).json")
        let written = try runner.run([
            "simulate", "--export", "health-auto-export", path, "--days", String(days), "--hae-style", "no-envelope",
            "--json",
        ])
        #expect(written.exitCode == 0, "\(written.standardError)")
        let summary = try JSONSerialization.jsonObject(with: Data(written.standardOutput.utf8)) as? [String: Any]
        return (try Data(contentsOf: URL(fileURLWithPath: path)), try #require(summary?["records"] as? Int))
    }

    func tokens() -> String {
        let path = directory.child("receive-tokens")
        _ = FileManager.default.createFile(
            atPath: path, contents: Data("iphone \(Self.token)\n".utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    /// Starts the receiver on `store` and waits for its "listening" line.
    func start(store: String, extra: [String] = []) throws -> (Process, port: Int, stderr: ServerLog) {
        try ListeningServer.start(
            runner, ["--store", store, "receive", "--port", "0", "--token-file", tokens()] + extra)
    }

    func post(_ port: Int, _ body: Data, token: String? = token, gzip: Bool = false) async throws
        -> (Int, [String: Any])
    {
        try await post(port, encoded: gzip ? try Self.gzipped(body) : body, token: token, gzip: gzip)
    }

    /// Posts `encoded` as it is, saying it is gzip when `gzip`.
    func post(_ port: Int, encoded: Data, token: String? = token, gzip: Bool) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/hae")!)
        request.httpMethod = "POST"
        // The answer comes after the commit: a million points on a loaded machine take minutes,
        // past URLSession's default of 60 s without a byte.
        request.timeoutInterval = 600
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if gzip { request.setValue("gzip", forHTTPHeaderField: "Content-Encoding") }
        request.httpBody = encoded
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }

    static func gzipped(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }

    func samples(in store: String) throws -> Int {
        let status = try runner.run(["--store", store, "status", "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        return try #require((json?["samples"] as? [String: Any])?["total"] as? Int)
    }

    @Test func pushesCommitOnceWithTheTokenAndMalformedOnesCommitNothing() async throws {
        let (generated, generatedRecords) = try push()
        // A metric the catalog has no entry for, first in the push.
        let unknown =
            #"{"name":"no_such_metric","units":"count","data":"#
            + #"[{"qty":1,"date":"2026-11-27 08:00:00 -0800"}]},"#
        let text = String(decoding: generated, as: UTF8.self)
        let metricsKey = try #require(text.range(of: #""metrics":["#))
        let body = Data((text[..<metricsKey.upperBound] + unknown + text[metricsKey.upperBound...]).utf8)
        let records = generatedRecords + 1
        let store = directory.child("store")
        let metricsPort = try LoopbackPort.free()
        let (process, port, errors) = try start(store: store, extra: ["--metrics-address", "127.0.0.1:\(metricsPort)"])
        defer { if process.isRunning { process.terminate() } }

        #expect(try await post(port, body, token: nil).0 == 401)
        #expect(try await post(port, body, token: "wrong-token-0123456789abcdef0123").0 == 401)
        #expect(try samples(in: store) == 0)

        let (status, first) = try await post(port, body)
        #expect(status == 200, "\(first)")
        #expect(first["records_read"] as? Int == records)
        let stored = try #require(first["stored"] as? Int)
        // The unknown metric: refused, named, and the rest committed.
        #expect(first["quarantined"] as? Int == 1)
        let refused = first["refused"] as? [[String: Any]]
        #expect(refused?.first?["type"] as? String == "no_such_metric")
        #expect(stored == records - 1)
        #expect(first["stream"] as? String == Self.stream)

        let (_, again) = try await post(port, body)
        #expect(again["stored"] as? Int == 0)
        #expect(again["duplicates"] as? Int == stored)
        let (zipped, compressed) = try await post(port, body, gzip: true)
        #expect(zipped == 200)
        #expect(compressed["duplicates"] as? Int == stored)

        let (bad, answer) = try await post(port, body.prefix(body.count / 2))
        #expect(bad == 400)
        #expect(answer["error"] as? String == "invalid_payload")
        #expect((answer["message"] as? String)?.contains("byte") == true)
        let total = try samples(in: store)
        #expect(total > 0)

        // The metrics count the pushes and their records as the answers did.
        let (metricsData, _) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!)
        let metrics = String(decoding: metricsData, as: UTF8.self)
        for (series, expected) in [
            ("healthetl_ingested_batches_total{outcome=\"stored\"}", 3),
            ("healthetl_ingested_batches_total{outcome=\"rejected\"}", 1),
            ("healthetl_ingested_samples_total{outcome=\"stored\"}", stored),
            ("healthetl_ingested_samples_total{outcome=\"duplicate\"}", 2 * stored),
            ("healthetl_ingested_samples_total{outcome=\"rejected\"}", 3),
            ("healthetl_http_requests_total{route=\"/hae\",code=\"401\"}", 2),
        ] {
            #expect(metrics.contains("\(series) \(expected)\n"), "\(series)")
        }

        let status2 = try runner.run(["--store", store, "status"])
        #expect(status2.standardOutput.contains(Self.stream))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = errors.finished()
        #expect(!log.contains(Self.token))
        #expect(log.contains("route=/hae status=200"))
        #expect(try samples(in: store) == total)
    }

    @Test func bodiesOverTheLimitAreRefusedAsSentAndAsDecompressed() async throws {
        let store = directory.child("limited")
        let (process, port, _) = try ListeningServer.start(
            runner, ["--store", store, "receive", "--port", "0", "--token-file", tokens(), "--max-body-mib", "1"])
        defer { process.terminate() }
        let large = Data(repeating: UInt8(ascii: " "), count: 2 << 20)
        #expect(try await post(port, large).0 == 413)
        // 5 MiB of spaces gzip to a few kilobytes; decompressed they pass the 4 MiB limit.
        let bomb = Data(repeating: UInt8(ascii: " "), count: 5 << 20)
        let (status, answer) = try await post(port, bomb, gzip: true)
        #expect(status == 413)
        #expect(answer["error"] as? String == "body_too_large")
        #expect(try samples(in: store) == 0)
    }

    /// A push of one step-count metric with `points` points a minute apart, from 2023-01-01
    /// (about 44 bytes a point).
    static func stepCounts(_ points: Int) -> Data {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:"
        var text = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":["#
        text.reserveCapacity(points * 46 + 64)
        var hour = ""
        for index in 0..<points {
            let minute = index % 60
            // One formatted hour per 60 points: the formatter is slow enough to matter.
            if minute == 0 {
                hour = formatter.string(from: Date(timeIntervalSince1970: 1_672_531_200 + Double(index * 60)))
            }
            if index > 0 { text += "," }
            text += #"{"qty":\#(index % 97 + 1),"date":"\#(hour)\#(minute < 10 ? "0" : "")\#(minute):00 +0000"}"#
        }
        return Data((text + "]}]}}").utf8)
    }

    /// Bodies are decoded into spool files under a budget shared by the pushes in flight, and a
    /// push is committed a batch at a time in one transaction: four concurrent gzip bombs and a
    /// push of one 1,000,000-point metric (46 MB) each stay under 150 MB (held whole, they reached
    /// 600 MB and 760 MB).
    @Test func bombsAndAMillionPointPushStayWithin150MB() async throws {
        let store = directory.child("memory")
        let (process, port, errors) = try start(store: store, extra: ["--max-body-mib", "48"])
        defer { if process.isRunning { process.terminate() } }
        // 200 MiB of spaces gzip to a few hundred kilobytes; the limit is 4 × 48 MiB decoded.
        let bomb = try Self.gzipped(Data(repeating: UInt8(ascii: " "), count: 200 << 20))
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let (status, answer) = try await self.post(port, encoded: bomb, gzip: true)
                    return (status, answer["error"] as? String ?? "")
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let statuses = answers.map(\.0)
        // Each is refused at its own limit (413), or once two of them hold the shared budget (503).
        #expect(statuses.allSatisfy { $0 == 413 || $0 == 503 }, "\(answers)")
        #expect(statuses.contains(413))
        let afterBombs = try #require(ProcessMemory.peakResidentBytes(of: process.processIdentifier))
        #expect(afterBombs < 150 << 20, "peak \(afterBombs >> 20) MiB under four gzip bombs")

        let points = 1_000_000
        let (status, answer) = try await post(port, Self.stepCounts(points))
        #expect(status == 200, "\(answer)")
        #expect(answer["records_read"] as? Int == points)
        #expect(answer["stored"] as? Int == points)
        let peak = try #require(ProcessMemory.peakResidentBytes(of: process.processIdentifier))
        #expect(peak < 150 << 20, "peak \(peak >> 20) MiB after a push of \(points) points")
        #expect(try samples(in: store) == points)
        // Every spool file is gone once its push is answered.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store + "/receive-spool").isEmpty)
        process.terminate()
        process.waitUntilExit()
        _ = errors.finished()
    }

    /// A push is committed a batch at a time, yet whole or not at all: a body that breaks off
    /// after many batches' worth of new records stores none of them.
    @Test func aPushThatBreaksOffAfterManyBatchesStoresNothing() async throws {
        let store = directory.child("broken")
        let (process, port, _) = try start(store: store)
        defer { if process.isRunning { process.terminate() } }
        let body = Self.stepCounts(30_000)
        let (status, answer) = try await post(port, body.prefix(body.count - 100))
        #expect(status == 400)
        #expect(answer["error"] as? String == "invalid_payload")
        #expect(try samples(in: store) == 0)
        let (whole, stored) = try await post(port, body)
        #expect(whole == 200)
        #expect(stored["stored"] as? Int == 30_000)
    }

    /// The server is frozen (SIGSTOP) again and again while a push is in flight, until a freeze
    /// finds the push committed and no answer sent: then it is killed (SIGKILL). The phone never
    /// got its 200, so it sends the push again: the restarted server stores nothing twice.
    @Test func aPushKilledAfterItsCommitAndBeforeItsAnswerIsStoredOnceWhenResent() async throws {
        let (body, _) = try push(days: 3)
        let head =
            "POST /hae HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        let request = Array(head.utf8) + Array(body)

        let clean = directory.child("clean")
        let (cleanServer, cleanPort, _) = try start(store: clean)
        let (cleanStatus, _) = try await post(cleanPort, body)
        #expect(cleanStatus == 200)
        cleanServer.terminate()
        cleanServer.waitUntilExit()
        let expected = try samples(in: clean)

        var caught: String?
        // Each attempt is a race against the server's answer; on a loaded machine most miss, so
        // there are enough of them that one lands (12 once all missed on a clean clone).
        for attempt in 0..<40 where caught == nil {
            let store = directory.child("killed-\(attempt)")
            let (server, port, _) = try start(store: store)
            let connection = try RawHTTPConnection(port: port)
            try await connection.send(request)
            var slice = UInt32(200 + attempt % 12 * 150)
            while true {
                kill(server.processIdentifier, SIGSTOP)
                // A freeze in the middle of a WAL write can leave the index unreadable for a moment
                // (SQLITE_PROTOCOL): then it is not known to be committed yet, and the server goes on.
                let cursor = try? StoreCursorProbe.position(store: store, stream: Self.stream, lane: "hot")
                let committed = cursor != nil
                if connection.hasAnswered() {
                    kill(server.processIdentifier, SIGKILL)
                    break
                }
                if committed {
                    kill(server.processIdentifier, SIGKILL)
                    caught = store
                    break
                }
                kill(server.processIdentifier, SIGCONT)
                usleep(slice)
                slice = max(50, slice / 2 + 25)
            }
            server.waitUntilExit()
        }
        let store = try #require(caught, "no freeze landed between the commit and the answer in 40 attempts")
        #expect(try samples(in: store) == expected)

        let (server, port, _) = try start(store: store)
        defer { if server.isRunning { server.terminate() } }
        let (status, resent) = try await post(port, body)
        #expect(status == 200)
        #expect(resent["stored"] as? Int == 0)
        #expect(try samples(in: store) == expected)
    }
}
