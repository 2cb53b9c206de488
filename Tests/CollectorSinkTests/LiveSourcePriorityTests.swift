import CollectorSink
import HealthETLCore
import Testing

/// The sink's source priority against the real collector: declared, sent, applied to the
/// projections, and refused before sending when the collector would refuse it.
@Suite struct LiveSourcePriorityTests {
    let collector = try! LiveCollector()
    typealias F = SinkFixtures

    /// Watch 10:00–10:10, 600 steps; phone 10:05–10:15, 300: 750 with the watch first, 600 with
    /// the phone first.
    static let overlapping = [
        F.sample(
            "step_count", source: "Apple Watch", start: "2026-01-05T10:00:00Z", end: "2026-01-05T10:10:00Z",
            value: 600),
        F.sample(
            "step_count", source: "iPhone", start: "2026-01-05T10:05:00Z", end: "2026-01-05T10:15:00Z",
            value: 300),
    ]

    @Test func theSinkDeclaresTheCapability() {
        #expect(CollectorSink.capabilities.contains(.sourcePriority))
        #expect(
            CollectorSink.descriptor.capabilities == ["deletions", "projections", "source_priority", "change_feed"])
    }

    @Test func aPriorityReachesTheCollectorsProjections() async throws {
        try await collector.run { sink in
            let batch = DeliveryBatch(batchID: "steps", samples: Self.overlapping, deletions: [])
            #expect(
                try await sink.deliver(batchID: batch.batchID, payload: try sink.encode(batch)).accepted == 2)
            let day = F.day("2026-01-05")
            #expect(try await sink.dailyRollups(metric: "step_count", from: day, to: day).map(\.sum) == [750])

            try await sink.setSourcePriority(["iPhone"])
            #expect(try await sink.dailyRollups(metric: "step_count", from: day, to: day).map(\.sum) == [600])
            // Sending it again is harmless.
            try await sink.setSourcePriority(["iPhone"])
            #expect(try await sink.dailyRollups(metric: "step_count", from: day, to: day).map(\.sum) == [600])

            try await sink.setSourcePriority([])
            #expect(try await sink.dailyRollups(metric: "step_count", from: day, to: day).map(\.sum) == [750])
        }
    }

    @Test func namesTheCollectorWouldRefuseArePermanentAndNotQuoted() async throws {
        try await collector.run { sink in
            let secret = "Simon\u{2019}s Apple Watch"
            let error = try #require(
                await F.failure { () async throws(DeliveryError) in
                    try await sink.setSourcePriority([secret, "iPhone", secret])
                })
            #expect(error.isPermanent)
            #expect(error.reason.contains("sources[2] repeats an earlier name"))
            #expect(!error.reason.contains(secret))
        }
    }

    @Test func aWrongTokenIsPermanent() async throws {
        try await collector.run(token: "wrong-token-0123456789abcdef") { sink in
            let error = try #require(
                await F.failure { () async throws(DeliveryError) in
                    try await sink.setSourcePriority(["iPhone"])
                })
            #expect(error.isPermanent)
            #expect(error.reason.contains("HTTP 401"))
        }
    }
}
