import Foundation
import HealthETLCore
import HealthETLTestSupport
import Synchronization
import Testing

@testable import HealthETLPipeline
@testable import HealthETLStore

/// What a feed does while the writer is busy: it normalizes queued batches rather than wait, and
/// hot records it has no room for join the next hot batch, so the reader keeps reading.
@Suite struct LaneWriterHandoffTests {
    let directory = TemporaryDirectory()
    static let stream = "apple_health:handoff"

    /// Holds every commit at its last step until opened; counts the commits it held.
    final class CommitGate: @unchecked Sendable {
        private let condition = NSCondition()
        private var open = false
        private var held = 0

        func pass() {
            condition.lock()
            defer { condition.unlock() }
            held += 1
            condition.broadcast()
            while !open { condition.wait() }
        }

        func release() {
            condition.lock()
            defer { condition.unlock() }
            open = true
            condition.broadcast()
        }

        var commitsHeld: Int {
            condition.lock()
            defer { condition.unlock() }
            return held
        }
    }

    func gatedStore() throws -> (Store, CommitGate) {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")))
        let gate = CommitGate()
        store.faultInjection = { stage in
            if stage == .beforeCommit { gate.pass() }
        }
        return (store, gate)
    }

    static func record(minute: Int) -> RawRecord {
        RecordFixtures.record(start: String(format: "2024-05-30 08:%02d:00 +0100", minute))
    }

    static func batch(minute: Int) -> RawBatch {
        var batch = RawBatch()
        batch.stream = stream
        batch.now = RecordFixtures.now
        batch.cursors = [.cold: Int64(minute + 1)]
        batch.append(.record(record(minute: minute), lane: .cold))
        return batch
    }

    /// A hot record, then a checkpoint after it.
    static func read(hotMinute minute: Int, into ingest: ArchiveIngest) throws {
        try ingest.receive(.record(record(minute: minute), lane: .hot))
        try ingest.receive(.checkpoint(StreamCursor(stream: stream, lane: .hot, position: Int64(minute + 1))))
    }

    /// Whether a thread's work returned.
    final class Completion: Sendable {
        private let done = Mutex(false)
        var isDone: Bool { done.withLock { $0 } }
        func finish() { done.withLock { $0 = true } }
    }

    /// Runs `body` on a thread of its own.
    static func onThread(_ body: @escaping @Sendable () throws -> Void) -> Completion {
        let completion = Completion()
        let thread = Thread {
            #expect(throws: Never.self) { try body() }
            completion.finish()
        }
        thread.start()
        return completion
    }

    @Test func aFeedNormalizesQueuedBatchesWhileItsLaneIsFull() async throws {
        let (store, gate) = try gatedStore()
        let catalog = try MetricCatalog.bundled()
        let writer = LaneWriter(store: store, catalog: catalog, clock: .system) { _, _, _ in }
        defer {
            gate.release()
            writer.stop()
        }
        try writer.submit(.gathered(Self.batch(minute: 0)), lane: .cold)
        #expect(try await eventually(within: 30) { gate.commitsHeld == 1 })
        // The writer holds the first batch; two gathered ones fill the lane.
        try writer.submit(.gathered(Self.batch(minute: 1)), lane: .cold)
        try writer.submit(.gathered(Self.batch(minute: 2)), lane: .cold)
        #expect(writer.batchesTakenBack == 0)
        // The feeding thread is the normalizer's only user.
        nonisolated(unsafe) let feed = BatchNormalizer(catalog: catalog)
        let fed = Self.onThread {
            try writer.submit(.gathered(Self.batch(minute: 3)), lane: .cold, normalizingWith: feed)
        }
        // Its own batch, then both queued ones, newest first, are normalized by the feed.
        #expect(try await eventually(within: 30) { writer.batchesTakenBack == 2 })
        #expect(!fed.isDone)
        gate.release()
        #expect(try await eventually(within: 30) { fed.isDone })
        try writer.drain()
        // Committed in the order submitted: a cursor moving backwards would have failed a commit.
        #expect(try store.cursor(stream: Self.stream, lane: .cold) == 4)
        #expect(
            try store.samples(metric: "heart_rate", starts: Instant(secondsSinceEpoch: 0)..<RecordFixtures.now).count
                == 4)
    }

    @Test func hotRecordsJoinTheNextHotBatchWhileTheWriterIsBusy() async throws {
        let (store, gate) = try gatedStore()
        let hotCommits = Atomic<Int>(0)
        let ingest = try ArchiveIngest(
            store: store, catalog: try MetricCatalog.bundled(), source: "apple_health", input: "export.zip",
            batchSize: 1_000, afterCommit: { lane in if lane == .hot { hotCommits.add(1, ordering: .relaxed) } })
        defer { gate.release() }
        try ingest.receive(
            .streamStarted(
                stream: Self.stream, now: RecordFixtures.now, isFullSnapshot: false, endPosition: nil,
                positions: .bytes))
        // Twelve hot records, a checkpoint after each, then a cold batch's worth. Once the writer
        // holds the first one's commit, two more hot batches fit the lane, the rest wait in the
        // next one, and reading goes on.
        try Self.read(hotMinute: 0, into: ingest)
        #expect(try await eventually(within: 30) { gate.commitsHeld == 1 })
        // The reading thread is the ingest's only user until it finishes.
        nonisolated(unsafe) let reader = ingest
        let read = Self.onThread {
            for minute in 1..<12 { try Self.read(hotMinute: minute, into: reader) }
            // A first cold batch (a sixteenth of the batch size) is due: it goes to its own lane,
            // without the hot cursor's empty batch, which would wait for room.
            for second in 0..<70 {
                let start = String(format: "2024-03-01 09:%02d:%02d +0100", second / 60, second % 60)
                try reader.receive(.record(RecordFixtures.record(start: start), lane: .cold))
            }
            try reader.receive(.checkpoint(StreamCursor(stream: Self.stream, lane: .cold, position: 13)))
        }
        let readWhileHeld = try await eventually(within: 30) { read.isDone }
        #expect(readWhileHeld)
        #expect(gate.commitsHeld == 1)
        gate.release()
        #expect(try await eventually(within: 30) { read.isDone })
        let summary = try ingest.finish(SourceReadReport(complete: true))
        #expect(summary.accepted == 82)
        // One commit held, two queued, one for the records that waited.
        #expect(hotCommits.load(ordering: .relaxed) == 4)
        #expect(try store.cursor(stream: Self.stream, lane: .hot) == 13)
        #expect(try store.cursor(stream: Self.stream, lane: .cold) == 13)
    }
}
