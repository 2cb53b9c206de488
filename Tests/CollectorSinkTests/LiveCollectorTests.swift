import CollectorSink
import HealthETLCore
import Testing

/// The sink against the real collector: receipts, replays, per-item rejections, tokens,
/// projections.
@Suite struct LiveCollectorTests {
    let collector = try! LiveCollector()
    typealias F = SinkFixtures

    @Test func aBatchOfSamplesAndADeletionIsCountedAndApplied() async throws {
        try await collector.run { sink in
            let first = DeliveryBatch(batchID: "b-1", samples: Array(F.steps[0..<2]), deletions: [])
            let receipt = try await sink.deliver(batchID: first.batchID, payload: try sink.encode(first))
            #expect(receipt.accepted == 2 && receipt.rejected.isEmpty)

            let deletion = Tombstone(
                of: F.steps[0], reason: "deleted_at_source",
                deletedAt: Instant(secondsSinceEpoch: 1_767_700_000))
            let second = DeliveryBatch(batchID: "b-2", samples: [F.steps[2]], deletions: [deletion])
            let mixed = try await sink.deliver(batchID: second.batchID, payload: try sink.encode(second))
            #expect(mixed.accepted == 2)  // one sample stored, one deletion applied
            #expect(mixed.rejected.isEmpty)

            let days = try await sink.dailyRollups(
                metric: "step_count", from: F.day("2026-01-05"), to: F.day("2026-01-05"))
            #expect(days.map(\.sum) == [650])
        }
    }

    @Test func theSamePayloadAgainGetsTheSameReceipt() async throws {
        try await collector.run { sink in
            let batch = DeliveryBatch(batchID: "replayed", samples: F.steps, deletions: [])
            let payload = try sink.encode(batch)
            let first = try await sink.deliver(batchID: batch.batchID, payload: payload)
            let again = try await sink.deliver(batchID: batch.batchID, payload: payload)
            #expect(first.accepted == 3)
            #expect(again.accepted == first.accepted && again.rejected == first.rejected)
            let days = try await sink.dailyRollups(
                metric: "step_count", from: F.day("2026-01-05"), to: F.day("2026-01-05"))
            #expect(days.map(\.sum) == [1250])
        }
    }

    @Test func itemsTheCollectorRefusesComeBackAsItemRejections() async throws {
        let negative = F.sample(
            "step_count", start: "2026-01-05T13:00:00Z", end: "2026-01-05T13:05:00Z", value: -5)
        let unknown = F.sample(
            "no_such_metric", start: "2026-01-05T13:00:00Z", end: "2026-01-05T13:05:00Z", value: 1)
        try await collector.run { sink in
            let batch = DeliveryBatch(
                batchID: "mixed", samples: [F.steps[0], negative, unknown], deletions: [])
            let receipt = try await sink.deliver(batchID: batch.batchID, payload: try sink.encode(batch))
            #expect(receipt.accepted == 1)
            #expect(
                receipt.rejected == [
                    ItemRejection(id: negative.id, reason: "value_below_hard_limit"),
                    ItemRejection(id: unknown.id, reason: "unknown_metric"),
                ])
        }
    }

    @Test func aWrongTokenIsPermanentAndNotQuoted() async throws {
        let wrong = "wrong-token-0123456789abcdef"
        try await collector.run(token: wrong) { sink in
            let batch = DeliveryBatch(batchID: "b-1", samples: F.steps, deletions: [])
            let payload = try sink.encode(batch)
            let error = try #require(
                await F.failure { () async throws(DeliveryError) in
                    try await sink.deliver(batchID: "b-1", payload: payload)
                })
            #expect(error.isPermanent)
            #expect(error.reason.contains("HTTP 401") && error.reason.contains("check that the token file"))
            #expect(!error.reason.contains(wrong))
            let projection = try #require(
                await F.failure { () async throws(DeliveryError) in
                    try await sink.sleepNights(from: F.day("2026-01-01"), to: F.day("2026-01-31"))
                })
            #expect(projection.isPermanent)
        }
    }

    @Test func theSameBatchIDWithAnotherBodyIsPermanentWithTheCollectorsCode() async throws {
        try await collector.run { sink in
            let first = DeliveryBatch(batchID: "reused", samples: [F.steps[0]], deletions: [])
            _ = try await sink.deliver(batchID: "reused", payload: try sink.encode(first))
            let other = try sink.encode(DeliveryBatch(batchID: "reused", samples: F.steps, deletions: []))
            let error = try #require(
                await F.failure { () async throws(DeliveryError) in
                    try await sink.deliver(batchID: "reused", payload: other)
                })
            #expect(error.isPermanent)
            #expect(error.reason.contains("HTTP 422 (idempotency_key_reused:"))
        }
    }

    @Test func dailyRollupsAndSleepNightsRoundTrip() async throws {
        let night = [
            F.sample(
                "sleep_analysis", start: "2026-01-05T22:00:00Z", end: "2026-01-06T06:00:00Z",
                category: "in_bed"),
            F.sample(
                "sleep_analysis", start: "2026-01-05T22:30:00Z", end: "2026-01-06T05:30:00Z",
                category: "asleep_core"),
        ]
        try await collector.run { sink in
            let batch = DeliveryBatch(batchID: "projections", samples: F.steps + night, deletions: [])
            #expect(
                try await sink.deliver(batchID: batch.batchID, payload: try sink.encode(batch)).accepted == 5)

            let days = try await sink.dailyRollups(
                metric: "step_count", from: F.day("2026-01-01"), to: F.day("2026-01-31"))
            #expect(days.count == 1)
            #expect(
                days.first?.day.description == "2026-01-05" && days.first?.sum == 1250
                    && days.first?.sources == ["Apple Watch"])

            let nights = try await sink.sleepNights(from: F.day("2026-01-01"), to: F.day("2026-01-31"))
            #expect(nights.count == 1)
            let first = try #require(nights.first)
            #expect(first.night.description == "2026-01-06" && first.source == "Apple Watch")
            #expect(first.inBedSeconds == 28_800 && first.coreSeconds == 25_200)
        }
    }

    @Test func aProjectionQueryIsPercentEncodedAndAnUnknownMetricIsPermanent() async throws {
        try await collector.run { sink in
            let error = try #require(
                await F.failure { () async throws(DeliveryError) in
                    try await sink.dailyRollups(
                        metric: "no such&metric=x", from: F.day("2026-01-01"), to: F.day("2026-01-31"))
                })
            #expect(error.isPermanent)
            // The whole name reached the collector: `&` and `=` did not split the query.
            #expect(
                error.reason.contains(
                    #"(unknown_metric: the catalog has no metric named "no such&metric=x")"#))
        }
    }
}
