import CollectorSink
import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import HealthETLTestSupport
import Testing

/// A token the collector refuses stops the run at once and strands nothing: every batch stays
/// queued, and a run with the right token delivers them all (M5).
@Suite struct RefusedTokenTests {
    let collector = UploadCollector()
    let directory = TemporaryDirectory("upload-token")

    @Test func aRefusedTokenStopsTheRunAndAFixedOneDeliversEverything() async throws {
        let storePath = directory.child("store")
        let samples = Upload.heartRates(30)
        try await collector.run { port, sinks in
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            try Upload.commit(store, samples)
            let wrong = try sinks.make(port: port, token: "wrong-token-0123456789abcdef0123")
            var refused = UploadReport()
            let stopped = await #expect(throws: CredentialsRefused.self) {
                try await Upload.uploader(store, wrong, clock: clock, batchSamples: 10, concurrency: 2)
                    .drain(tiers: [.batch], formingPending: true, into: &refused)
            }
            #expect(stopped?.description.contains("fix the token") == true)
            #expect(stopped?.reason.contains("HTTP 401") == true)
            // Stopped at the first answers: the rest was not even formed; nothing is dead, and
            // what was queued waits with no attempt counted against it.
            #expect(refused.queuedBatches == 2 && refused.attempts == 2, "\(refused)")
            #expect(refused.deadBatches == 0 && refused.deliveredBatches == 0)
            let counts = try store.uploadCounts()
            #expect(counts[.dead] == 0 && counts[.inFlight] == 0 && counts[.done] == 0)
            let waiting = try store.uploads(in: [.pending, .failed], limit: 10)
            #expect(waiting.count == 2 && waiting.allSatisfy { $0.item.attempts == 0 })
            #expect(try collector.sampleCount() == 0)

            let right = try sinks.make(port: port)
            var delivered = UploadReport()
            try await Upload.uploader(store, right, clock: clock, batchSamples: 10)
                .drain(tiers: Set(UploadTier.allCases), formingPending: true, into: &delivered)
            #expect(delivered.deliveredBatches == 3 && delivered.deadBatches == 0)
            #expect(Set(try collector.sampleRows().keys) == Upload.hex(samples))
        }
    }
}
