import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthETLPipeline
@testable import HealthETLStore

/// A deletion and the return of the same sample within one batch are applied in the source's
/// order: the store used to apply every tombstone after every sample, losing a return.
@Suite struct BatchOrderTests {
    let directory = TemporaryDirectory()

    func batch(_ samples: [Sample], _ tombstones: [Tombstone], positions: [Int], cursor: Int64) -> CommitBatch {
        var batch = CommitBatch(
            stream: "test:stream", samples: samples.map { LanedSample($0, lane: .change) }, tombstones: tombstones,
            cursors: [.change: cursor])
        batch.tombstonePositions = positions
        return batch
    }

    @Test func aSampleDeletedAndBackInOneBatchStaysAndOneBackAndDeletedGoes() throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")))
        let sample = RecordFixtures.sample(index: 1)
        try store.commit(batch([sample], [], positions: [], cursor: 1))
        let deletion = Tombstone(of: sample, reason: "deleted_at_source", deletedAt: RecordFixtures.now)

        let back = try store.commit(batch([sample], [deletion], positions: [0], cursor: 2))
        #expect(back.tombstones == 1 && back.inserted == 1)
        #expect(try store.status().samples.total == 1)
        #expect(try store.status().tombstones.total == 0)
        let stored = try #require(try store.samples(afterSequence: 0, limit: 10).last?.sample)
        #expect(stored.restoresDeletionAt == RecordFixtures.now)

        let later = Tombstone(
            of: sample, reason: "deleted_at_source", deletedAt: RecordFixtures.now.adding(seconds: 60))
        try store.commit(batch([sample], [later], positions: [1], cursor: 3))
        #expect(try store.status().samples.total == 0)
        #expect(try store.status().tombstones.total == 1)
    }

    /// The normalizer carries each deletion's place among the records over to the samples, past
    /// a quarantined record.
    @Test func theNormalizerKeepsEachDeletionsPlace() throws {
        let normalizer = BatchNormalizer(catalog: try MetricCatalog.bundled())
        let record = RecordFixtures.record()
        var probe = RawBatch()
        probe.now = RecordFixtures.now
        probe.append(.record(record, lane: .change))
        let sample = try #require(normalizer.normalize(probe).0.samples.first?.sample)
        let deletion = Tombstone(of: sample, reason: "deleted_at_source", deletedAt: RecordFixtures.now)

        var raw = RawBatch()
        raw.now = RecordFixtures.now
        raw.append(.record(RecordFixtures.record(value: "not a number"), lane: .change))
        raw.append(.deletion(deletion))
        raw.append(.record(record, lane: .change))
        raw.append(.deletion(deletion))
        let (batch, _) = normalizer.normalize(raw)
        #expect(batch.samples.count == 1 && batch.quarantined.count == 1)
        #expect(batch.tombstonePositions == [0, 1])
    }
}
