import Foundation
import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Testing

/// `POST /v1/batches` under the Idempotency-Key contract, against the live server.
@Suite struct BatchIdempotencyTests {
    let harness = try! CollectorHarness()

    static let steps = [
        WireFixtures.sample(
            "step_count", source: "Watch", start: "2026-01-05T10:00:00Z", end: "2026-01-05T10:10:00Z", value: 600),
        WireFixtures.sample(
            "step_count", source: "Watch", start: "2026-01-05T11:00:00Z", end: "2026-01-05T11:10:00Z", value: 400),
    ]

    @Test(arguments: CollectorBackend.allCases) func aReplayReturnsTheFirstResponseAndStoresNothingTwice(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            let batch = WireFixtures.batch("b-1", Self.steps)
            let first = try await client.post(batch)
            #expect(first.status == .ok)
            #expect(first.batchResponse == WireBatchResponse(batchID: "b-1", accepted: 2, deleted: 0, rejected: []))
            let again = try await client.post(batch)
            #expect(again.status == .ok)
            #expect(Array(again.body.readableBytesView) == Array(first.body.readableBytesView))
            #expect(again.headers[.init("Idempotent-Replayed")!] == "true")
            let days = try await client.daily("step_count", "2026-01-05", "2026-01-05")
            #expect(days.map(\.sum) == [1000])
        }
    }

    /// The digest of a canonical body is taken from its bytes, of any other from the batch
    /// written canonically: the same batch replays whichever form came first.
    @Test(arguments: CollectorBackend.allCases) func theSameBatchSpacedOrOrderedOtherwiseIsAReplay(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            for (index, canonicalFirst) in [true, false].enumerated() {
                let batch = WireFixtures.batch("b-form-\(index)", Self.steps)
                let canonical = batch.jsonBytes()
                let other = Array(try JSONEncoder().encode(batch)) + Array("\n".utf8)
                #expect(WireBatchParser.read(canonical)?.isCanonical == true)
                #expect(WireBatchParser.read(other)?.isCanonical != true)
                let (first, second) = canonicalFirst ? (canonical, other) : (other, canonical)
                #expect(try await client.post(first, key: batch.batchID).status == .ok)
                let again = try await client.post(second, key: batch.batchID)
                #expect(again.status == .ok)
                #expect(again.headers[.init("Idempotent-Replayed")!] == "true")
            }
        }
    }

    @Test(arguments: CollectorBackend.allCases) func theSameKeyWithAnotherBodyIs422(_ backend: CollectorBackend)
        async throws
    {
        try await harness.run(on: backend) { client in
            #expect(try await client.post(WireFixtures.batch("b-2", [Self.steps[0]])).status == .ok)
            let changed = try await client.post(WireFixtures.batch("b-2", Self.steps))
            #expect(changed.status == .unprocessableContent)
            #expect(changed.errorCode == "idempotency_key_reused")
            #expect(try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [600])
        }
    }

    @Test(arguments: CollectorBackend.allCases) func theSameKeyWhileTheFirstIsStillUploadingIs409(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            let port = try #require(client.port)
            let body = Array(try JSONEncoder().encode(WireFixtures.batch("slow", Self.steps)))
            // The first request sends its head and half its body, then stalls.
            let slow = try RawHTTPConnection(port: port)
            try await slow.send(
                "POST /v1/batches HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(CollectorHarness.alice)\r\n"
                    + "Idempotency-Key: slow\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            )
            try await slow.send(Array(body[0..<(body.count / 2)]))
            try await Task.sleep(for: .milliseconds(300))

            let second = try await client.post(body, key: "slow")
            #expect(second.status == .conflict)
            #expect(second.errorCode == "batch_in_progress")

            try await slow.send(Array(body[(body.count / 2)...]))
            let response = try await slow.readResponse()
            #expect(response.hasPrefix("HTTP/1.1 200"))
            // Once the first is done, the same request is a replay.
            #expect(try await client.post(body, key: "slow").status == .ok)
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aKeyThatDiffersFromTheBatchIDIsRefused(_ backend: CollectorBackend)
        async throws
    {
        try await harness.run(on: backend) { client in
            let body = Array(try JSONEncoder().encode(WireFixtures.batch("inner", Self.steps)))
            let response = try await client.post(body, key: "outer")
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "batch_id_mismatch")
            let missing = try await client.post(body, key: nil)
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "missing_idempotency_key")
        }
    }

    @Test(arguments: CollectorBackend.allCases) func itemsThatBreakHardRulesAreListedAndTheRestStored(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            var unknown = Self.steps[0]
            unknown.metric = "no_such_metric"
            let negative = WireFixtures.sample(
                "step_count", source: "Watch", start: "2026-01-05T12:00:00Z", end: "2026-01-05T12:05:00Z", value: -5)
            let backwards = WireFixtures.sample(
                "heart_rate", source: "Watch", start: "2026-01-05T12:00:00Z", end: "2026-01-05T11:00:00Z", value: 60)
            var badID = Self.steps[1]
            badID.id = "not-hex"
            let good = Self.steps[0]
            let response = try await client.post(
                WireFixtures.batch("mixed", [unknown, negative, good, backwards, badID]))
            #expect(response.status == .ok)
            let result = try #require(response.batchResponse)
            #expect(result.accepted == 1)
            #expect(result.rejected.map(\.index) == [0, 1, 3, 4])
            #expect(
                result.rejected.map(\.reason) == [
                    "unknown_metric", "value_below_hard_limit", "end_before_start", "invalid_id",
                ])
            #expect(try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [600])
        }
    }

    @Test(arguments: CollectorBackend.allCases) func extremeNumbersAreRefusedNotOverflowed(_ backend: CollectorBackend)
        async throws
    {
        try await harness.run(on: backend) { client in
            var offset = Self.steps[0]
            offset.utcOffsetSeconds = Int.min
            var huge = Self.steps[1]
            huge.value = 1e308
            let response = try await client.post(WireFixtures.batch("extreme", [offset, huge]))
            #expect(response.batchResponse?.rejected.map(\.reason) == ["invalid_utc_offset", "invalid_value"])
            #expect(try await client.get("/v1/healthz", token: nil).status == .ok)
        }
    }

    @Test(arguments: CollectorBackend.allCases) func absurdDatesAndSpansAreRefusedPerItemBeforeAnyDayIsSliced(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            let forever = WireFixtures.sample(
                "step_count", source: "Watch", start: "0001-01-01T00:00:00Z", end: "9999-12-31T00:00:00Z", value: 5)
            let fourYears = WireFixtures.sample(
                "step_count", source: "Watch", start: "2020-01-01T00:00:00Z", end: "2024-01-01T00:00:00Z", value: 5)
            let response = try await client.post(WireFixtures.batch("absurd", [forever, fourYears, Self.steps[0]]))
            let result = try #require(response.batchResponse)
            #expect(result.rejected.map(\.reason) == ["date_out_of_range", "span_too_long"])
            #expect(result.accepted == 1)
            #expect(try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.count) == [1])
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aDeletionRemovesTheSampleAndItStaysDeleted(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            #expect(try await client.post(WireFixtures.batch("add", Self.steps)).status == .ok)
            let deletion = WireDeletion(id: Self.steps[0].id, metric: "step_count", start: Self.steps[0].start)
            let deleted = try await client.post(WireFixtures.batch("delete", [], deletions: [deletion]))
            #expect(deleted.batchResponse?.deleted == 1)
            #expect(try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [400])
            let resent = try await client.post(WireFixtures.batch("resend", [Self.steps[0]]))
            #expect(resent.batchResponse?.rejected.map(\.reason) == ["deleted"])
            #expect(try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [400])
        }
    }

    /// A deletion and the sample's return are applied in the order they happened at the source,
    /// whichever arrives first; a stale copy and an older return stay refused.
    @Test(arguments: CollectorBackend.allCases) func aSampleBackAfterItsDeletionIsTakenInTheOrderTheyHappened(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            #expect(try await client.post(WireFixtures.batch("add", Self.steps)).status == .ok)
            let first = WireDeletion(
                id: Self.steps[0].id, metric: "step_count", start: Self.steps[0].start,
                deletedAt: "2026-01-06T00:00:00Z")
            #expect(try await client.post(WireFixtures.batch("delete", [], deletions: [first])).status == .ok)
            let stale = try await client.post(WireFixtures.batch("stale", [Self.steps[0]]))
            #expect(stale.batchResponse?.rejected.map(\.reason) == ["deleted"])
            var back = Self.steps[0]
            back.restoresDeletionAt = "2026-01-05T23:00:00Z"
            let older = try await client.post(WireFixtures.batch("older", [back]))
            #expect(older.batchResponse?.rejected.map(\.reason) == ["deleted"])

            back.restoresDeletionAt = first.deletedAt
            let restored = try await client.post(WireFixtures.batch("back", [back]))
            #expect(restored.batchResponse?.accepted == 1 && restored.batchResponse?.rejected == [])
            #expect(try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [1000])
            // The same deletion arriving late (a retried batch) leaves it in place; the stale copy
            // updates it without forgetting that it came back.
            #expect(try await client.post(WireFixtures.batch("late", [], deletions: [first])).status == .ok)
            #expect(try await client.post(WireFixtures.batch("stale-again", [Self.steps[0]])).status == .ok)
            #expect(try await client.post(WireFixtures.batch("late-again", [], deletions: [first])).status == .ok)
            #expect(try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [1000])

            var second = first
            second.deletedAt = "2026-01-07T00:00:00Z"
            #expect(try await client.post(WireFixtures.batch("delete-again", [], deletions: [second])).status == .ok)
            #expect(try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [400])
            let outdated = try await client.post(WireFixtures.batch("back-again", [back]))
            #expect(outdated.batchResponse?.rejected.map(\.reason) == ["deleted"])
        }
    }
}
