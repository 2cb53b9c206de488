import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import HealthETLTestSupport
import Testing

/// A sample deleted at the source and later back there (the same content, so the same id) ends
/// present, in the store and on the collector, whichever of the deletion and the return reaches
/// the collector first (M4).
@Suite struct RestoredSampleTests {
    let collector = UploadCollector()
    let directory = TemporaryDirectory("upload-restored")

    static let deletedAt = Instant(secondsSinceEpoch: 1_767_225_600)

    static func deletion(_ sample: Sample) -> Tombstone {
        Tombstone(of: sample, reason: "deleted_at_source", deletedAt: deletedAt)
    }

    /// Sample, deletion and return each uploaded before the next happens.
    @Test func aSampleBackAfterItsDeletionEndsOnTheCollector() async throws {
        let storePath = directory.child("store")
        let samples = Upload.heartRates(3)
        let comeback = samples[1]
        try await collector.run { port, sinks in
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            let uploader = Upload.uploader(store, try sinks.make(port: port), clock: clock)
            var report = UploadReport()
            try Upload.commit(store, samples)
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)
            try Upload.commit(store, [], tombstones: [Self.deletion(comeback)], lane: .change)
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)
            #expect(Set(try collector.sampleRows().keys) == Upload.hex([samples[0], samples[2]]))

            // History replayed on the cold lane is older than the deletion: it stays out.
            try Upload.commit(store, [comeback])
            #expect(try store.status().samples.total == 2)
            // Back at the source, on the change lane: stored again, and sent.
            try Upload.commit(store, [comeback], lane: .change)
            #expect(try store.status().samples.total == 3)
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)

            #expect(report.rejectedItems == 0 && report.deadBatches == 0, "\(report)")
            #expect(Set(try collector.sampleRows().keys) == Upload.hex(samples))
            // A catch-up sends every tombstone again: the deletion given way is not among them.
            try uploader.enqueueWindow(since: Instant(millisecondsSinceEpoch: 0), into: &report)
            try await uploader.drain(tiers: Set(UploadTier.allCases), into: &report)
            #expect(report.rejectedItems == 0 && report.deadBatches == 0, "\(report)")
            #expect(Set(try collector.sampleRows().keys) == Upload.hex(samples))
        }
    }

    /// The deletion's batch fails and is delivered only after the return's: the collector keeps
    /// the sample.
    @Test func aDeletionArrivingAfterTheReturnDoesNotUndoIt() async throws {
        let storePath = directory.child("store")
        let samples = Upload.heartRates(3)
        let comeback = samples[1]
        try await collector.run { port, sinks in
            let front = try FaultInjectingServer(script: [], afterScript: .forward(to: port))
            defer { front.stop() }
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            let uploader = Upload.uploader(store, try sinks.make(port: front.port), clock: clock)
            var report = UploadReport()
            try Upload.commit(store, samples)
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)

            try Upload.commit(store, [], tombstones: [Self.deletion(comeback)], lane: .change)
            front.append([.respond(status: 503)])
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)
            #expect(report.failedAttempts == 1 && report.waitingBatches == 1)

            try Upload.commit(store, [comeback], lane: .change)
            try uploader.enqueuePending(into: &report)
            // The return goes out first (the deletion waits for its retry), then the deletion.
            try await uploader.drain(tiers: [.batch], retryUntil: clock.now().adding(seconds: 60), into: &report)
            #expect(report.deadBatches == 0 && report.waitingBatches == 0, "\(report)")
            let keys = front.exchanges.compactMap { $0.request.headers["idempotency-key"] }
            #expect(keys.count == 4 && keys[1] == keys[3], "the deletion was not delivered last: \(keys)")
            #expect(Set(try collector.sampleRows().keys) == Upload.hex(samples))
            #expect(try store.status().samples.total == 3)
        }
    }
}
