import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// What a tombstone keeps out: history older than the deletion, never the sample coming back at
/// the source after it (M4).
@Suite struct StoreDeletionTests {
    let directory = TemporaryDirectory()

    @discardableResult
    func commit(_ store: Store, _ samples: [Sample] = [], tombstones: [Tombstone] = [], lane: Lane) throws
        -> CommitResult
    {
        let position = (try store.cursor(stream: "test:stream", lane: lane) ?? 0) + 1
        return try store.commit(
            CommitBatch(
                stream: "test:stream", samples: samples.map { LanedSample($0, lane: lane) }, tombstones: tombstones,
                cursors: [lane: position]))
    }

    @Test func aSampleBackOnTheChangeLaneOutranksItsDeletion() throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")))
        let sample = RecordFixtures.sample(index: 1)
        try commit(store, [sample], lane: .cold)
        let deletion = Tombstone(of: sample, reason: "deleted_at_source", deletedAt: RecordFixtures.now)
        try commit(store, tombstones: [deletion], lane: .change)

        #expect(try commit(store, [sample], lane: .cold).deletedEarlier == 1)
        #expect(try commit(store, [sample], lane: .hot).deletedEarlier == 1)
        let back = try commit(store, [sample], lane: .change)
        #expect(back.inserted == 1 && back.deletedEarlier == 0)
        #expect(try store.status().tombstones.total == 0)
        let stored = try #require(try store.samples(afterSequence: 0, limit: 10).last?.sample)
        #expect(stored.id == sample.id && stored.restoresDeletionAt == RecordFixtures.now)
        // Deleted again later: a new tombstone, sent like any other.
        let again = Tombstone(
            of: sample, reason: "deleted_at_source", deletedAt: RecordFixtures.now.adding(seconds: 60))
        #expect(try commit(store, tombstones: [again], lane: .change).tombstones == 1)
        #expect(try store.status().samples.total == 0)
        #expect(try store.tombstones(afterSequence: 1, limit: 10).map(\.tombstone.deletedAt) == [again.deletedAt])
    }
}
