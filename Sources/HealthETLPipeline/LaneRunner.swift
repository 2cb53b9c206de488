import Foundation
import HealthETLCore
import HealthETLStore

/// Runs live sources into the store: for each lane a thread asks every source for its next
/// batch, normalizes it and queues it; the caller's thread is the one store writer and commits
/// the queued batches hot first (`LanePriorityQueue`), each with its lane's cursor.
///
/// A lane ends when its sources are finished, or wait past `until`; without `until` the hot
/// and change lanes follow the clock until `stop` is raised. After a stop, batches already
/// queued are still committed, so every cursor in the store covers exactly what was written.
public final class LaneRunner {
    private let store: Store
    private let catalog: MetricCatalog
    private let sources: [any LaneSource]
    private let clock: SimulatedClock
    private let until: Instant?
    private let batchLimit: Int
    private let stop: StopSignal
    private let progress: ((LaneRunSummary) -> Void)?
    private let wall: @Sendable () -> Instant

    public init(
        store: Store, catalog: MetricCatalog, sources: [any LaneSource], clock: SimulatedClock, until: Instant?,
        stop: StopSignal, batchLimit: Int = 5_000, wall: @escaping @Sendable () -> Instant = Store.systemNow,
        progress: ((LaneRunSummary) -> Void)? = nil
    ) {
        self.store = store
        self.catalog = catalog
        self.sources = sources
        self.clock = clock
        self.until = until
        self.stop = stop
        self.batchLimit = batchLimit
        self.wall = wall
        self.progress = progress
    }

    public func run() throws -> LaneRunSummary {
        let started = ContinuousClock.now
        var summary = LaneRunSummary(simulatedThrough: clock.now(wall: wall()))
        summary.streams = sources.map(\.streamName)
        let queue = SharedLaneQueue(capacityPerLane: 2)
        var producers: [Thread] = []
        for lane in Lane.allCases {
            let starts = try sources.map { try store.cursor(stream: $0.streamName, lane: lane) ?? $0.initialCursor(lane) }
            let producer = LaneProducer(
                lane: lane, sources: sources, cursors: starts, catalog: catalog, clock: clock, until: until,
                batchLimit: batchLimit, stop: stop, wall: wall, queue: queue)
            let thread = Thread { producer.run() }
            thread.name = "healthetl-\(lane.rawValue)"
            producers.append(thread)
        }
        queue.expectProducers(producers.count)
        producers.forEach { $0.start() }

        var lastReport = ContinuousClock.now
        do {
            while let (lane, job) = queue.take() {
                let committing = ContinuousClock.now
                let result = try store.commit(job.batch)
                summary.writerBusySeconds += (ContinuousClock.now - committing).seconds
                summary.lanes[lane, default: LaneTally()].add(result, notes: job.notes)
                if ContinuousClock.now - lastReport > .milliseconds(500) {
                    lastReport = ContinuousClock.now
                    summary.simulatedThrough = clock.now(wall: wall())
                    summary.elapsedSeconds = (ContinuousClock.now - started).seconds
                    progress?(summary)
                }
            }
        } catch {
            // The producers stop at their next step; what they queued is not committed.
            stop.raise()
            queue.abandon()
            throw error
        }
        summary.interrupted = stop.isRaised
        let reached = clock.now(wall: wall())
        summary.simulatedThrough = until.map { min($0, reached) } ?? reached
        summary.cursors = try store.cursors().filter { summary.streams.contains($0.stream) }
        summary.elapsedSeconds = (ContinuousClock.now - started).seconds
        return summary
    }
}

/// A normalized batch on its way to the writer.
struct LaneJob: @unchecked Sendable {
    let batch: CommitBatch
    let notes: BatchNotes
}

/// The writer's queue, shared by the lane threads: bounded per lane, hot first.
final class SharedLaneQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: LanePriorityQueue<LaneJob>
    private var producers = 0
    private var abandoned = false

    init(capacityPerLane: Int) {
        queue = LanePriorityQueue(capacityPerLane: capacityPerLane)
    }

    func expectProducers(_ count: Int) {
        condition.lock()
        producers = count
        condition.unlock()
    }

    /// Queues a job, waiting while its lane is full. Returns false if the writer gave up.
    func put(_ job: LaneJob, lane: Lane) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !queue.hasRoom(for: lane), !abandoned { condition.wait() }
        guard !abandoned else { return false }
        queue.push(job, lane: lane)
        condition.broadcast()
        return true
    }

    func producerFinished() {
        condition.lock()
        producers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next job by priority; `nil` once every producer is done and nothing is left.
    func take() -> (Lane, LaneJob)? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty, producers > 0 { condition.wait() }
        guard let next = queue.pop() else { return nil }
        condition.broadcast()
        return (next.lane, next.job)
    }

    func abandon() {
        condition.lock()
        abandoned = true
        condition.broadcast()
        condition.unlock()
    }
}
