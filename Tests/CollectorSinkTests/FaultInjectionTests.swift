import CollectorSink
import HealthETLCore
import HealthETLTestSupport
import Testing

/// Every way a delivery can fail, from a scripted server, classified exactly (reliability U1, U2).
@Suite struct FaultInjectionTests {
    typealias F = SinkFixtures
    static let token = "fault-token-0123456789abcdef"
    /// 2026-01-01T00:00:00Z, the tests' fixed clock for HTTP-dates.
    static let now = Instant(secondsSinceEpoch: 1_767_225_600)
    static let batch = DeliveryBatch(batchID: "fault-batch", samples: F.steps, deletions: [])
    static let accepted = #"{"batch_id":"fault-batch","accepted":3,"deleted":0,"rejected":[]}"#

    /// Delivers `batch` to a server playing `script`; returns the failure (or nil) and what the server read.
    func deliver(
        _ script: [FaultInjectingServer.Action], attempts: Int = 1, requestTimeout: Duration = .seconds(5),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (errors: [DeliveryError], requests: [FaultInjectingServer.Request], payload: [UInt8]) {
        let server = try FaultInjectingServer(script: script)
        defer { server.stop() }
        let configuration = try CollectorSinkConfiguration(
            endpoint: "http://127.0.0.1:\(server.port)", token: try CollectorToken(Self.token),
            requestTimeout: requestTimeout)
        return try await F.withSink(configuration, now: { Self.now }) { sink in
            let payload = try sink.encode(Self.batch)
            var errors: [DeliveryError] = []
            for _ in 0..<attempts {
                do throws(DeliveryError) {
                    _ = try await sink.deliver(batchID: Self.batch.batchID, payload: payload)
                } catch {
                    errors.append(error)
                }
            }
            return (errors, server.requests, payload)
        }
    }

    @Test func theRequestCarriesKeyTokenEncodingAndTheExactPayload() async throws {
        let (errors, requests, payload) = try await deliver([.json(status: 200, Self.accepted)])
        #expect(errors.isEmpty)
        let request = try #require(requests.first)
        #expect(request.method == "POST" && request.target == "/v1/batches")
        #expect(request.headers["idempotency-key"] == "fault-batch")
        #expect(request.headers["authorization"] == "Bearer \(Self.token)")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["content-encoding"] == "zstd")
        #expect(request.body == payload)
    }

    @Test func a500IsRetryableWithoutAWait() async throws {
        let (errors, _, _) = try await deliver([
            .json(status: 500, #"{"error":"internal","message":"disk on fire"}"#)
        ])
        let error = try #require(errors.first)
        #expect(error.retryAfter == .some(nil))
        #expect(error.reason.contains("HTTP 500 (internal: disk on fire)"))
    }

    @Test func a503WithRetryAfterSecondsWaitsThatLong() async throws {
        let (errors, _, _) = try await deliver([.respond(status: 503, headers: ["Retry-After": "7"])])
        #expect(errors.first?.retryAfter == .some(7))
    }

    @Test func a429WithAnHTTPDateWaitsUntilThatDate() async throws {
        let (errors, _, _) = try await deliver([
            .respond(status: 429, headers: ["Retry-After": "Thu, 01 Jan 2026 00:02:00 GMT"])
        ])
        #expect(errors.first?.retryAfter == .some(120))
    }

    @Test func a408AndA409AreRetryable() async throws {
        let conflict =
            #"{"error":"batch_in_progress","message":"a request with this Idempotency-Key is still being processed; retry later"}"#
        let (errors, _, _) = try await deliver(
            [.respond(status: 408), .json(status: 409, conflict)], attempts: 2)
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.retryAfter == .some(nil) })
        #expect(errors.last?.reason.contains("batch_in_progress") == true)
    }

    @Test func anAnswerSlowerThanTheRequestTimeoutIsRetryable() async throws {
        // Had the client waited, the 200 would have made it a success: the timeout ended it (no
        // wall-clock assertion, which a loaded machine would make flaky).
        let (errors, requests, _) = try await deliver(
            [.delay(seconds: 3, then: .json(status: 200, Self.accepted))], requestTimeout: .seconds(1))
        let error = try #require(errors.first)
        #expect(error.retryAfter == .some(nil))
        #expect(error.reason.contains("did not answer batch fault-batch within 1.0 s"))
        #expect(requests.count == 1)
    }

    @Test func aConnectionClosedAfterTheWholeBodyIsRetryable() async throws {
        let (errors, requests, payload) = try await deliver([.closeAfterBody])
        #expect(requests.first?.body == payload)
        let error = try #require(errors.first)
        #expect(error.retryAfter == .some(nil))
        #expect(error.reason.contains("before the collector answered"))
    }

    @Test func aConnectionResetAfterTheWholeBodyIsRetryable() async throws {
        let (errors, requests, payload) = try await deliver([.resetAfterBody])
        #expect(requests.first?.body == payload)
        let error = try #require(errors.first)
        #expect(error.retryAfter == .some(nil))
    }

    @Test func aRefusedConnectionIsRetryable() async throws {
        // A port that was just free: nothing listens there once the server stops.
        var port = 0
        do {
            let server = try FaultInjectingServer(script: [])
            port = server.port
            server.stop()
        }
        try await Task.sleep(for: .milliseconds(250))
        let configuration = try CollectorSinkConfiguration(
            endpoint: "http://127.0.0.1:\(port)", token: try CollectorToken(Self.token),
            connectTimeout: .seconds(2))
        let error = try await F.withSink(configuration) { sink in
            await F.failure { () async throws(DeliveryError) in
                try await sink.deliver(batchID: "b", payload: [1, 2, 3])
            }
        }
        #expect(error?.retryAfter == .some(nil))
    }

    @Test func a400And422ArePermanentWithTheCollectorsErrorCode() async throws {
        let (errors, _, _) = try await deliver(
            [
                .json(
                    status: 400, #"{"error":"invalid_batch","message":"samples[0].start: expected a string"}"#
                ),
                .json(
                    status: 422, #"{"error":"idempotency_key_reused","message":"a new batch needs a new id"}"#
                ),
            ], attempts: 2)
        #expect(errors.count == 2 && errors.allSatisfy(\.isPermanent))
        #expect(
            errors.first?.reason.contains("HTTP 400 (invalid_batch: samples[0].start: expected a string)")
                == true)
        #expect(
            errors.last?.reason.contains("HTTP 422 (idempotency_key_reused: a new batch needs a new id)")
                == true)
    }

    @Test func a413And415ArePermanent() async throws {
        let (errors, _, _) = try await deliver(
            [
                .json(status: 413, #"{"error":"body_too_large","message":"send smaller batches"}"#),
                .respond(status: 415),
            ], attempts: 2)
        #expect(errors.count == 2 && errors.allSatisfy(\.isPermanent))
        #expect(errors.first?.reason.contains("body_too_large") == true)
    }

    @Test func a401And403AreRefusedCredentialsAndPointAtTheToken() async throws {
        let (errors, _, _) = try await deliver(
            [
                .json(status: 401, #"{"error":"unauthorized","message":"a valid token is required"}"#),
                .respond(status: 403),
            ], attempts: 2)
        #expect(errors.count == 2 && errors.allSatisfy(\.isUnauthorized))
        #expect(
            errors.allSatisfy {
                $0.reason.contains("check that the token file") && !$0.reason.contains(Self.token)
            })
    }

    @Test func aRedirectIsNotFollowedAndIsPermanent() async throws {
        let (errors, requests, _) = try await deliver([
            .respond(status: 307, headers: ["Location": "http://127.0.0.1:1/v1/batches"])
        ])
        #expect(requests.count == 1)
        #expect(errors.first?.isPermanent == true)
        #expect(errors.first?.reason.contains("a redirect to http://127.0.0.1:1/v1/batches") == true)
    }

    @Test func a200ThatIsNotABatchResponseIsRetryable() async throws {
        let (errors, _, _) = try await deliver([.respond(status: 200, body: Array("<html>proxy</html>".utf8))]
        )
        #expect(errors.first?.retryAfter == .some(nil))
    }

    @Test func aRetryAfterFailuresSendsTheSameKeyAndBytes() async throws {
        let (errors, requests, payload) = try await deliver(
            [.respond(status: 502), .resetAfterBody, .json(status: 200, Self.accepted)], attempts: 3)
        #expect(errors.count == 2)
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.headers["idempotency-key"] == "fault-batch" && $0.body == payload })
    }
}
