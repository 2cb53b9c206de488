import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import HealthETLTestSupport
import Testing

/// Upload marks follow a commit sequence that only grows: SQLite hands a new sample a row id at
/// or below the mark once the newest rows are deleted, and a row-id mark never sent it (H1).
@Suite struct CommitSequenceTests {
    let collector = UploadCollector()
    let directory = TemporaryDirectory("upload-sequence")

    static func deletions(_ samples: [Sample]) -> [Tombstone] {
        samples.map { Tombstone(of: $0, reason: "deleted_at_source", deletedAt: RecordFixtures.now) }
    }

    /// The batch tier: the newest samples deleted through the change lane, new ones committed;
    /// the collector ends with exactly the samples the store holds.
    @Test func samplesCommittedAfterTheNewestWereDeletedAreUploaded() async throws {
        let storePath = directory.child("store")
        try await collector.run { port, sinks in
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            let uploader = Upload.uploader(store, try sinks.make(port: port), clock: clock)
            let first = Upload.heartRates(10)
            try Upload.commit(store, first)
            var report = UploadReport()
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)

            let deleted = Array(first.suffix(3))
            try Upload.commit(store, [], tombstones: Self.deletions(deleted), lane: .change)
            let later = Upload.heartRates(5, first: 100)
            try Upload.commit(store, later)
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)

            #expect(report.deadBatches == 0 && report.waitingBatches == 0)
            #expect(Set(try collector.sampleRows().keys) == Upload.hex(Array(first.prefix(7)) + later))
            #expect(try store.status().samples.total == 12)
        }
    }

    /// Tier 1 keeps its mark between sends (as `simulate --follow` does): hot samples committed
    /// after the newest were deleted still go out at once.
    @Test func tierOneSendsHotSamplesCommittedAfterTheNewestWereDeleted() async throws {
        let storePath = directory.child("store")
        try await collector.run { port, sinks in
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            let uploader = Upload.uploader(store, try sinks.make(port: port), clock: clock)
            let resting = (0..<6).map { RecordFixtures.sample(index: $0, metric: "resting_heart_rate") }
            try Upload.commit(store, Array(resting.prefix(4)), lane: .hot)
            var report = UploadReport()
            let mark = try await uploader.sendRealTime(
                afterSequence: 0, metrics: ["resting_heart_rate"], into: &report)

            try Upload.commit(store, [], tombstones: Self.deletions(Array(resting[2..<4])), lane: .change)
            try Upload.commit(store, Array(resting.suffix(2)), lane: .hot)
            let next = try await uploader.sendRealTime(
                afterSequence: mark, metrics: ["resting_heart_rate"], into: &report)

            #expect(next > mark)
            #expect(report.deliveredBatches == 2 && report.acceptedItems == 6)
            // The deletions go with the batch tier; what tier 1 sent is every sample committed.
            #expect(Set(try collector.sampleRows().keys) == Upload.hex(resting))
        }
    }

    /// Deleting the newest samples does not lower the sequence; what commits next is numbered above.
    @Test func theSequenceOnlyGrows() throws {
        let path = directory.child("store")
        let clock = TestClock()
        let store = try Upload.store(path, clock: clock)
        try Upload.commit(store, Upload.heartRates(4))
        #expect(try store.lastSampleSequence() == 4)
        try Upload.commit(store, [], tombstones: Self.deletions(Upload.heartRates(2, first: 2)), lane: .change)
        #expect(try store.lastSampleSequence() == 4)
        try Upload.commit(store, Upload.heartRates(1, first: 50))
        #expect(try store.lastSampleSequence() == 5)
        let sequences = try store.samples(afterSequence: 0, limit: 10).map(\.sequence)
        #expect(sequences == [1, 2, 5])
    }
}
