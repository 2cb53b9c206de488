import Foundation
import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Testing

@testable import HealthETLCollectorStorage
@testable import HealthETLServer

/// Tokens and user isolation (reliability P2, P5).
@Suite struct AccessTests {
    let harness = try! CollectorHarness()
    static let walk = WireFixtures.sample(
        "step_count", source: "Watch", start: "2026-02-01T09:00:00Z", end: "2026-02-01T09:30:00Z", value: 3000)

    @Test(arguments: CollectorBackend.allCases) func aMissingOrWrongTokenIs401AndHealthzNeedsNone(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            let body = Array(try JSONEncoder().encode(WireFixtures.batch("x", [Self.walk])))
            let missing = try await client.post(body, key: "x", token: nil)
            #expect(missing.status == .unauthorized)
            #expect(missing.errorCode == "unauthorized")
            #expect(
                try await client.post(body, key: "x", token: "alice-token-0123456789abcdeX").status == .unauthorized)
            #expect(
                try await client.get("/v1/projections/sleep?from=2026-01-01&to=2026-01-02", token: nil).status
                    == .unauthorized)
            #expect(try await client.get("/v1/healthz", token: nil).status == .ok)
            // Nothing was stored by the refused request.
            #expect(try await client.daily("step_count", "2026-02-01", "2026-02-01").isEmpty)
        }
    }

    @Test(arguments: CollectorBackend.allCases) func oneUserCannotSeeOrDeleteAnothersData(_ backend: CollectorBackend)
        async throws
    {
        try await harness.run(on: backend) { client in
            #expect(try await client.post(WireFixtures.batch("a-1", [Self.walk])).status == .ok)
            // Bob sees nothing of Alice's.
            #expect(
                try await client.daily("step_count", "2026-02-01", "2026-02-01", token: CollectorHarness.bob).isEmpty)
            // Bob's deletion of Alice's sample id touches only Bob's (empty) data.
            let deletion = WireDeletion(id: Self.walk.id, metric: "step_count", start: Self.walk.start)
            let deleted = try await client.post(
                WireFixtures.batch("a-1", [], deletions: [deletion]), token: CollectorHarness.bob)
            #expect(deleted.status == .ok)
            #expect(try await client.daily("step_count", "2026-02-01", "2026-02-01").map(\.sum) == [3000])
            // Batch ids are per user: Bob's "a-1" was his own new batch, not a 422 against Alice's.
            #expect(deleted.headers[.init("Idempotent-Replayed")!] == nil)
            // And Alice's own ingest still replays hers.
            #expect(
                try await client.post(WireFixtures.batch("a-1", [Self.walk])).headers[.init("Idempotent-Replayed")!]
                    == "true")
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aWrongMethodIs405WithAllowAndAnUnknownPathStays404(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            let getBatches = try await client.get("/v1/batches")
            #expect(getBatches.status == .methodNotAllowed)
            #expect(getBatches.headers[.allow] == "POST")
            #expect(getBatches.errorCode == "method_not_allowed")
            let postHealth = try await client.execute(uri: "/v1/healthz", method: .post, headers: [:])
            #expect(postHealth.status == .methodNotAllowed)
            #expect(postHealth.headers[.allow] == "GET")
            let deleteDaily = try await client.execute(uri: "/v1/projections/daily", method: .delete, headers: [:])
            #expect(deleteDaily.headers[.allow] == "GET")
            #expect(try await client.get("/v1/nothing-here").status == .notFound)
        }
    }

    @Test func aTokensFileOthersCanReadIsRefused() throws {
        let directory = harness.directory
        let path = directory.child("open-tokens")
        _ = FileManager.default.createFile(
            atPath: path, contents: Data("alice \(CollectorHarness.alice)\n".utf8),
            attributes: [.posixPermissions: 0o644])
        #expect(throws: CollectorError.self) { try TokenFile(path: path) }
        do {
            _ = try TokenFile(path: path)
        } catch let error as CollectorError {
            #expect(error.description.contains("chmod 600"))
            #expect(!error.description.contains(CollectorHarness.alice))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func tokensAreComparedByDigestAndShortOnesRefused() throws {
        let path = harness.directory.child("short")
        _ = FileManager.default.createFile(
            atPath: path, contents: Data("carol short\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(throws: CollectorError.self) { try TokenFile(path: path) }
        let authenticator = Authenticator(try TokenFile(path: harness.tokensPath))
        #expect(authenticator.user(authorization: "Bearer \(CollectorHarness.bob)") == "bob")
        #expect(authenticator.user(authorization: "bearer \(CollectorHarness.alice)") == "alice")
        #expect(authenticator.user(authorization: "Basic \(CollectorHarness.alice)") == nil)
        #expect(authenticator.user(authorization: "Bearer ") == nil)
    }

    private func tokensFile(_ name: String, _ text: String) -> String {
        let path = harness.directory.child(name)
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    @Test func aTokensFileWithWindowsLineEndingsWorksLikeOneWithUnixOnes() throws {
        let one = Authenticator(try TokenFile(path: tokensFile("crlf-one", "alice \(CollectorHarness.alice)\r\n")))
        #expect(one.user(authorization: "Bearer \(CollectorHarness.alice)") == "alice")
        let both = Authenticator(
            try TokenFile(
                path: tokensFile(
                    "crlf-two",
                    "# users\r\nalice \(CollectorHarness.alice)\r\n\r\nbob \(CollectorHarness.bob)\r\n")))
        #expect(both.user(authorization: "Bearer \(CollectorHarness.alice)") == "alice")
        #expect(both.user(authorization: "Bearer \(CollectorHarness.bob)") == "bob")
    }

    @Test func oneTokenOnTwoLinesIsRefusedAtStartWithoutShowingIt() throws {
        let path = tokensFile(
            "shared", "alice \(CollectorHarness.alice)\ncarol \(CollectorHarness.alice)\n")
        #expect {
            _ = try TokenFile(path: path)
        } throws: { error in
            let message = (error as? CollectorError)?.description ?? ""
            return message.contains("line 2") && message.contains("another user's")
                && !message.contains(CollectorHarness.alice)
        }
    }

    @Test(arguments: CollectorBackend.allCases) func idleAndStalledConnectionsAreClosedSoTheCapNeverLocksOutHealthz(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend, idleTimeoutSeconds: 0.5, maximumConnections: 8) { client in
            let port = try #require(client.port)
            // More connections than the cap: some send nothing, some half a request head.
            let idle = try (0..<6).map { _ in try RawHTTPConnection(port: port) }
            let stalled = try (0..<6).map { _ in try RawHTTPConnection(port: port) }
            for connection in stalled { try await connection.send("GET /v1/healthz HTTP/1.1\r\nHost: loc") }
            for connection in idle + stalled { #expect(try await connection.closedByServer(within: 5)) }
            // The test client's own pooled connection was idle too; a new one is served.
            let fresh = try RawHTTPConnection(port: port)
            try await fresh.send("GET /v1/healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let answer = try await fresh.readResponse()
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        }
    }
}
