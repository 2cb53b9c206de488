import CollectorSink
import HealthETLCore
import HealthETLPipeline
import HealthETLServer
import HealthETLStore
import HealthETLTestSupport
import HealthETLWire
import Testing

/// Batches are formed within the size the collector enforces, the JSON after decompression (M5).
@Suite struct BatchLimitTests {
    let directory = TemporaryDirectory("upload-limits")

    /// Well under the budget compressed, several times over it decompressed: split, not refused.
    @Test func aBatchOverTheLimitOnlyOnceDecompressedIsSplitAndDelivered() async throws {
        let collector = UploadCollector(maximumDecodedBytes: 64 << 10)
        let storePath = directory.child("store")
        let samples = Upload.heartRates(1_500)
        try await collector.run { port, sinks in
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            try Upload.commit(store, samples)
            let sink = try sinks.make(port: port)
            let whole = try sink.encode(DeliveryBatch(batchID: "whole", samples: samples, deletions: []))
            #expect(whole.count < 64 << 10 && sink.decodedSize(of: whole) > 3 * (64 << 10))

            let uploader = Upload.uploader(store, sink, clock: clock, batchBytes: 64 << 10)
            var report = UploadReport()
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)

            #expect(report.queuedBatches >= 4)
            #expect(report.deadBatches == 0 && report.deliveredBatches == report.queuedBatches, "\(report)")
            #expect(Set(try collector.sampleRows().keys) == Upload.hex(samples))
        }
    }

    /// One limit, in one place: the collector's default and the sink's batches agree.
    @Test func theSinkFormsBatchesWithinTheCollectorsDefaultLimit() {
        let configuration = CollectorConfiguration(dataDirectory: "/nonexistent", tokensPath: "/nonexistent")
        #expect(configuration.maximumDecodedBytes == WireLimits.decodedBatchBytes)
        #expect(CollectorSink.maximumBatchBytes == WireLimits.decodedBatchBytes)
        #expect(UploadLimits().bytes <= WireLimits.decodedBatchBytes)
    }
}
