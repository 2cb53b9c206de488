import Foundation
import HealthETLCore
import HealthETLStore

/// The one store writer of an ingest, on a thread of its own. Batches from any number of feeds
/// wait in a bounded queue per lane (two each by default: with one, the reader waited for the
/// writer and the import took 6 % longer) and are committed hot first (`LanePriorityQueue`), each with
/// its cursors in one transaction. A gathered batch is normalized here, unless a feed that found
/// its lane full did it first: rather than wait, the feed normalizes its own batch, then takes
/// back the newest gathered one queued and normalizes that, so whichever thread has time does it.
///
/// The first failure stops the writer: nothing queued behind a failed batch is committed, so no
/// later cursor can pass a lost batch. The store is the writer's while batches are in flight and
/// the caller's once `drain()` returns.
final class LaneWriter: @unchecked Sendable {
    enum Job {
        case gathered(RawBatch)
        case normalized(CommitBatch, BatchNotes)
        /// A gathered batch a feed took back to normalize (`submit`): the writer waits for it.
        case takenBack(ticket: Int)
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
    /// Batches taken back and normalized, by ticket, until the writer reaches their place.
    private var normalizedInFeeds: [Int: (CommitBatch, BatchNotes)] = [:]
    /// Batches taken back so far; the last one's ticket.
    private var takenBack = 0

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

    /// Queues a batch, waiting while its lane is full. Given a normalizer, the calling thread
    /// normalizes while it would wait: its own batch, then gathered ones queued in its lane.
    /// - Throws: the writer's first failure, or `CancellationError` once it was stopped.
    func submit(_ job: Job, lane: Lane, normalizingWith normalizer: BatchNormalizer? = nil) throws {
        var job = job
        condition.lock()
        defer { condition.unlock() }
        while !queue.hasRoom(for: lane), failure == nil, !stopped {
            if let normalizer, case .gathered(let raw) = job {
                let (batch, notes) = normalize(raw, with: normalizer)
                job = .normalized(batch, notes)
            } else if let normalizer, let (ticket, raw) = takeBackNewestGathered(in: lane) {
                normalizedInFeeds[ticket] = normalize(raw, with: normalizer)
                condition.broadcast()
            } else {
                condition.wait()
            }
        }
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

    /// Gathered batches feeds took back and normalized themselves.
    var batchesTakenBack: Int {
        condition.lock()
        defer { condition.unlock() }
        return takenBack
    }

    /// Seconds spent committing so far: near the elapsed time means the writer limited the run.
    var secondsCommitting: Double {
        condition.lock()
        defer { condition.unlock() }
        return busySeconds
    }

    /// The newest gathered batch queued in `lane`, with a ticket left in its place. Under the lock.
    private func takeBackNewestGathered(in lane: Lane) -> (ticket: Int, RawBatch)? {
        let ticket = takenBack + 1
        let raw = queue.takeNewest(of: lane, leaving: .takenBack(ticket: ticket)) { job -> RawBatch? in
            if case .gathered(let raw) = job { raw } else { nil }
        }
        guard let raw else { return nil }
        takenBack = ticket
        return (ticket, raw)
    }

    /// Normalizes a batch on the calling feed's thread with the lock let go meanwhile. Under the lock.
    private func normalize(_ raw: RawBatch, with normalizer: BatchNormalizer) -> (CommitBatch, BatchNotes) {
        condition.unlock()
        defer { condition.lock() }
        return normalizer.normalize(raw)
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty, !stopped { condition.wait() }
            guard let (lane, popped) = queue.pop() else {
                condition.unlock()
                return
            }
            var job = popped
            busy = true
            condition.broadcast()
            if case .takenBack(let ticket) = job {
                while normalizedInFeeds[ticket] == nil { condition.wait() }
                let (batch, notes) = normalizedInFeeds.removeValue(forKey: ticket)!
                job = .normalized(batch, notes)
            }
            condition.unlock()

            let started = clock.monotonic()
            let outcome = Result {
                let (batch, notes) =
                    switch job {
                    case .gathered(let raw): normalizer.normalize(raw)
                    case .normalized(let batch, let notes): (batch, notes)
                    case .takenBack: preconditionFailure("a batch taken back is replaced before it is committed")
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
                normalizedInFeeds.removeAll()
            }
            condition.broadcast()
            condition.unlock()
        }
    }
}
