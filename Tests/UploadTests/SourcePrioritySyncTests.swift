import CollectorSink
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import HealthETLTestSupport
import Testing

/// The store's source priority on its way to the sink: sent when it changed and only then, the
/// local projections made stale so they are fetched in the new order, and a failed or
/// impossible send reported without failing anything.
@Suite struct SourcePrioritySyncTests {
    let collector = UploadCollector()
    let directory = TemporaryDirectory("upload-priority")

    // Watch 10:00–10:10, 600 steps; phone 10:05–10:15, 300: 750 with the watch first, 600 with
    // the phone first.
    static let overlapping = [
        Upload.sample("step_count", "2026-01-05T10:00:00Z", value: 600),
        Upload.sample("step_count", "2026-01-05T10:05:00Z", value: 300, source: "iPhone"),
    ]
    static let day = Upload.day("2026-01-05")

    /// A sink that only takes batches.
    struct DeliveryOnlySink: SampleSink {
        static let name = "delivery_only"
        static let summary = "takes batches and nothing else"
        static let capabilities: SinkCapabilities = [.deletions]

        static func make(_ settings: PluginSettings, environment: [String: String]) throws -> Self { Self() }
        func encode(_ batch: DeliveryBatch) throws -> [UInt8] { [] }
        func deliver(batchID: String, payload: [UInt8]) async throws(DeliveryError) -> DeliveryReceipt {
            DeliveryReceipt(accepted: 0)
        }
    }

    func stepSum(_ store: Store) throws -> Double? {
        try store.dailyProjections(metric: "step_count", days: Self.day...Self.day).first?.rollup.sum
    }

    @Test func aChangedPriorityIsSentOnceAndTheLocalProjectionsAreFetchedAgain() async throws {
        let path = directory.child("store")
        try await collector.run { port, sinks in
            let clock = TestClock()
            let store = try Upload.store(path, clock: clock)
            let sink = try sinks.make(port: port)
            try Upload.commit(store, Self.overlapping)
            var report = UploadReport()
            try await Upload.uploader(store, sink, clock: clock).drain(
                tiers: [.batch], formingPending: true, into: &report)
            let projections = ProjectionSync(store: store, sink: sink, clock: .following { clock.now() })
            _ = try await projections.refresh()
            #expect(try stepSum(store) == 750)

            func send(_ configured: [String]?) async throws -> SourcePrioritySync.Outcome {
                try await SourcePrioritySync(store: store, sink: sink, configured: configured).send()
            }
            // Nothing configured and nothing sent before: the collector's default is the order.
            #expect(try await send(nil) == SourcePrioritySync.Outcome())

            #expect(try await send(["iPhone"]).sent)
            #expect(try store.dirtyProjectionKeys().keys == ["step_count": [Self.day]])
            _ = try await projections.refresh()
            #expect(try stepSum(store) == 600)
            #expect(try await send(["iPhone"]) == SourcePrioritySync.Outcome())
            #expect(try store.dirtyProjectionKeys().keys.isEmpty)

            // Removed from the config file: the default order goes back.
            #expect(try await send(nil).sent)
            _ = try await projections.refresh()
            #expect(try stepSum(store) == 750)
        }
    }

    @Test func aFailedSendIsReportedAndTriedAgainByTheNextRun() async throws {
        let path = directory.child("store")
        try await collector.run { port, sinks in
            let store = try Upload.store(path, clock: TestClock())
            let down = try FaultInjectingServer(script: [], afterScript: .respond(status: 503))
            defer { down.stop() }
            let failed = try await SourcePrioritySync(
                store: store, sink: try sinks.make(port: down.port), configured: ["iPhone"]
            ).send()
            #expect(!failed.sent)
            #expect(
                failed.notSent?.contains("HTTP 503") == true
                    && failed.notSent?.contains("the next run tries again") == true)
            #expect(try store.sentSinkSetting("source_priority", sink: "collector") == nil)

            let retried = try await SourcePrioritySync(
                store: store, sink: try sinks.make(port: port), configured: ["iPhone"]
            ).send()
            #expect(retried.sent)
            #expect(try store.sentSinkSetting("source_priority", sink: "collector") == #"["iPhone"]"#)
        }
    }

    @Test func aSinkWithoutTheCapabilityIsNeverAsked() async throws {
        let store = try Upload.store(directory.child("store"), clock: TestClock())
        let sink = DeliveryOnlySink()
        let outcome = try await SourcePrioritySync(store: store, sink: sink, configured: ["iPhone"]).send()
        #expect(
            !outcome.sent
                && outcome.notSent?.contains("the delivery_only sink takes no source priority") == true)
        #expect(try store.sentSinkSetting("source_priority", sink: "delivery_only") == nil)
        // The protocol's default refuses outright.
        await #expect(throws: DeliveryError.permanent(reason: "delivery_only takes no source priority")) {
            try await sink.setSourcePriority(["iPhone"])
        }
    }
}
