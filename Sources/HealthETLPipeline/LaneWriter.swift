import Foundation
import HealthETLCore
import HealthETLStore

/// The one store writer of an ingest, on a thread of its own. Batches from any number of feeds
/// wait in a bounded queue per lane (two each by default: with one, the reader waited for the
/// writer and the import took 6 % longer) and are committed hot first (`LanePriorityQueue`), each with
/// its cursors in one transaction. A gathered batch is normalized here; a feed that finds its
/// lane full normalizes the batch itself rather than wait, so whichever thread has time does it.
///
/// The first failure stops the writer: nothing queued behind a failed batch is committed, so no
/// later cursor can pass a lost batch. The store is the writer's while batches are in flight and
/// the caller's once `drain()` returns.
final class LaneWriter: @unchecked Sendable {
    enum Job {
        case gathered(RawBatch)
        case normalized(CommitBatch, BatchNotes)
    }

    /// Called on the writer's thread after each commit.
    typealias Committed = (Lane, CommitResult, BatchNotes) -> Void

    private let store: any SampleLedger
    private let normalizer: BatchNormalizer
    private let committed: Committed
    private let clock: Clock
    private let condition = NSCondition()
    private var queue: LanePriorityQueue<Job>
    private var busy = false
    private var failure: (any Error)?
    private var stopped = false
    private var busySeconds = 0.0

    init(
        store: any SampleLedger, catalog: MetricCatalog, clock: Clock, capacityPerLane: Int = 2,
        committed: @escaping Committed
    ) {
        self.store = store
        self.normalizer = BatchNormalizer(catalog: catalog)
        self.committed = committed
        self.clock = clock
        self.queue = LanePriorityQueue(capacityPerLane: capacityPerLane)
        // The thread keeps the writer alive until `stop()` lets it finish.
        let thread = Thread { [self] in self.work() }
        thread.name = "healthetl-writer"
        thread.start()
    }

    /// Whether a batch of `lane` submitted now would be queued without waiting.
    func hasRoom(_ lane: Lane) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return queue.hasRoom(for: lane)
    }

    /// Queues a batch, waiting while its lane is full.
    /// - Throws: the writer's first failure, or `CancellationError` once it was stopped.
    func submit(_ job: Job, lane: Lane) throws {
        condition.lock()
        defer { condition.unlock() }
        while !queue.hasRoom(for: lane), failure == nil, !stopped { condition.wait() }
        if let failure { throw failure }
        if stopped { throw CancellationError() }
        queue.push(job, lane: lane)
        condition.broadcast()
    }

    /// Waits until every queued batch is committed.
    /// - Throws: the writer's first failure.
    func drain() throws {
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || busy, failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Lets the thread end once the queue is empty; batches still queued are committed first.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Seconds spent committing so far: near the elapsed time means the writer limited the run.
    var secondsCommitting: Double {
        condition.lock()
        defer { condition.unlock() }
        return busySeconds
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty, !stopped { condition.wait() }
            guard let (lane, job) = queue.pop() else {
                condition.unlock()
                return
            }
            busy = true
            condition.broadcast()
            condition.unlock()

            let started = clock.monotonic()
            let outcome = Result {
                let (batch, notes) =
                    switch job {
                    case .gathered(let raw): normalizer.normalize(raw)
                    case .normalized(let batch, let notes): (batch, notes)
                    }
                committed(lane, try store.commit(batch), notes)
            }
            let seconds = clock.secondsSince(started)

            condition.lock()
            busy = false
            busySeconds += seconds
            if case .failure(let error) = outcome, failure == nil {
                failure = error
                while queue.pop() != nil {}
            }
            condition.broadcast()
            condition.unlock()
        }
    }
}
