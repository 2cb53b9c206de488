import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// `asOneTransaction`: the batches committed inside it are its savepoints, seen by another
/// connection all at once or, when it throws, not at all (what a push to `healthetl receive`
/// relies on to commit in bounded batches and still whole).
@Suite struct StoreOneTransactionTests {
    let directory = TemporaryDirectory()
    var path: StoreDirectory { StoreDirectory(path: directory.child("store")) }

    struct Broken: Error {}

    func batch(_ range: Range<Int>, source: String) -> CommitBatch {
        let samples = range.map { index in
            var sample = RecordFixtures.sample(index: index)
            sample.sourceName = source
            return LanedSample(sample, lane: .hot)
        }
        return CommitBatch(stream: "test:push", samples: samples, cursors: [.hot: Int64(range.upperBound)])
    }

    @Test func batchesInsideAreSeenTogetherOrNotAtAll() throws {
        let store = try Store(directory: path, clock: .fixed(RecordFixtures.now))
        let other = try Store(directory: path)
        #expect(throws: Broken.self) {
            try store.asOneTransaction {
                try store.commit(batch(0..<10, source: "New watch"))
                try store.commit(batch(10..<20, source: "New watch"))
                throw Broken()
            }
        }
        #expect(try other.connection.scalar("SELECT COUNT(*) FROM samples") == 0)
        #expect(try other.connection.scalar("SELECT COUNT(*) FROM sources") == 0)
        #expect(try other.cursor(stream: "test:push", lane: .hot) == nil)

        // The source interned by the rolled-back batches is interned again, not taken from the cache.
        try store.asOneTransaction {
            try store.commit(batch(0..<10, source: "New watch"))
            #expect(try other.connection.scalar("SELECT COUNT(*) FROM samples") == 0)
            try store.commit(batch(10..<20, source: "New watch"))
        }
        #expect(try other.connection.scalar("SELECT COUNT(*) FROM samples") == 20)
        #expect(try other.connection.scalar("SELECT COUNT(*) FROM sources") == 1)
        #expect(try other.cursor(stream: "test:push", lane: .hot) == 20)
    }

    @Test func aFailedBatchInsideUndoesOnlyItself() throws {
        let store = try Store(directory: path, clock: .fixed(RecordFixtures.now))
        try store.asOneTransaction {
            try store.commit(batch(0..<10, source: "Watch"))
            // A cursor moving backwards fails its own commit (its savepoint), nothing before it.
            #expect(throws: StoreError.self) { try store.commit(batch(0..<5, source: "Watch")) }
        }
        #expect(try store.connection.scalar("SELECT COUNT(*) FROM samples") == 10)
    }
}
