import Foundation
import HealthETLTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `healthetl serve` as an operator runs it: the built binary on a loopback port.
@Suite(.serialized) struct ServeCommandTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-serve")
    static let token = "e2e-token-0123456789abcdef0123"

    func writeTokens(mode: Int) -> String {
        let path = directory.child("tokens-\(mode)")
        _ = FileManager.default.createFile(
            atPath: path, contents: Data("me \(Self.token)\n".utf8), attributes: [.posixPermissions: mode])
        return path
    }

    /// Starts the server and waits for its "listening" line.
    func start(tokens: String, extra: [String] = []) throws -> (Process, port: Int, stderr: ServerLog) {
        try ListeningServer.start(
            runner, ["serve", "--port", "0", "--data", directory.child("data"), "--tokens", tokens] + extra)
    }

    func request(_ port: Int, _ path: String, method: String = "GET", body: Data? = nil, key: String? = nil)
        async throws
        -> (Int, Data)
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.setValue("Bearer \(Self.token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let key { request.setValue(key, forHTTPHeaderField: "Idempotency-Key") }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test func itServesStopsGracefullyAndLogsNoSecrets() async throws {
        let (process, port, errors) = try start(tokens: writeTokens(mode: 0o600))
        let (health, _) = try await request(port, "/v1/healthz")
        #expect(health == 200)
        let batch = #"""
            {"batch_id":"e2e-1","samples":[{"id":"0123456789abcdef0123456789abcdef","metric":"step_count","source":"Watch",
            "start":"2026-01-05T10:00:00Z","end":"2026-01-05T10:10:00Z","value":4321}],"deletions":[]}
            """#
        let (stored, answer) = try await request(
            port, "/v1/batches", method: "POST", body: Data(batch.utf8), key: "e2e-1")
        #expect(stored == 200, "\(String(decoding: answer, as: UTF8.self))")
        let (daily, rollups) = try await request(
            port, "/v1/projections/daily?metric=step_count&from=2026-01-05&to=2026-01-05")
        #expect(daily == 200)
        #expect(String(decoding: rollups, as: UTF8.self).contains("\"sum\":4321"))

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = errors.finished()
        #expect(log.contains("/v1/batches"))
        #expect(!log.contains(Self.token))
        #expect(!log.contains("metric=step_count"))
        #expect(!log.contains("4321"))

        // The database it kept is private.
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.child("data/healthetl.sqlite"))
        #expect((attributes[.posixPermissions] as? Int ?? 0) & 0o077 == 0)
    }

    @Test func sigtermLetsARequestInFlightFinish() async throws {
        // The other end-to-end suites hold Swift's few threads while they wait on their
        // commands, so this test may resume long after each await; a half-sent request would
        // meet the 15 s idle timeout, and the server would rightly close it; in the same way the
        // request may take longer than the 10 s drain, after which the server rightly cancels it.
        let (process, port, errors) = try start(
            tokens: writeTokens(mode: 0o600), extra: ["--idle-timeout", "10m", "--drain-timeout", "10m"])
        let body = Array(
            #"{"batch_id":"slow","samples":[],"deletions":[{"id":"0123456789abcdef0123456789abcdef","metric":"step_count","start":"2026-01-05T10:00:00Z"}]}"#
                .utf8)
        // A health check goes first on the same connection, in the same packet as the upload's
        // head. Once its answer is back the server has read that head, so the upload is in flight
        // when the signal comes, however loaded the machine is (an unread head is an idle
        // connection, which shutdown rightly closes).
        let upload = try RawHTTPConnection(port: port)
        let head =
            "GET /v1/healthz HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.token)\r\n\r\n"
            + "POST /v1/batches HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(Self.token)\r\n"
            + "Idempotency-Key: slow\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        try await upload.send(Array(head.utf8) + body[0..<20])
        let health = try await upload.readResponse()
        #expect(health.hasPrefix("HTTP/1.1 200"), "\(health)")
        kill(process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        guard process.isRunning else {
            process.waitUntilExit()
            let log = errors.finished()
            Issue.record(
                "the server did not wait for the request in flight: \(process.terminationReason == .uncaughtSignal ? "killed by signal" : "exited") \(process.terminationStatus), \(log)"
            )
            return
        }
        try await upload.send(Array(body[20...]))
        let response = try await upload.readResponse()
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func aTokensFileOthersCanReadStopsItWithTheFix() throws {
        let result = try runner.run([
            "serve", "--port", "0", "--data", directory.child("data"), "--tokens", writeTokens(mode: 0o644),
        ])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("chmod 600"))
        #expect(!result.standardError.contains(Self.token))
    }
}
