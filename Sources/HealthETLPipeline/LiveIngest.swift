import Foundation
import HealthETLCore
import HealthETLStore

/// Feeds live sources into the ingest engine: a thread per lane asks every source for its next
/// batch, normalizes it and hands it to the engine's writer, which commits hot first, each batch
/// with its lane's cursor.
///
/// A lane ends when its sources are finished, or wait past `until`; without `until` the hot and
/// change lanes follow the clock until `stop` is raised. After a stop, batches already queued
/// are still committed, so every cursor in the store covers exactly what was written.
public final class LiveIngest {
    private let store: any SampleLedger & CursorLedger
    private let catalog: MetricCatalog
    private let sources: [any LaneSource]
    private let simulated: SimulatedClock
    private let until: Instant?
    private let batchLimit: Int
    private let stop: StopSignal
    private let clock: Clock
    private let afterCommit: (@Sendable (Lane) -> Void)?
    private let progress: ((LiveIngestSummary) -> Void)?

    public init(
        store: any SampleLedger & CursorLedger, catalog: MetricCatalog, sources: [any LaneSource],
        simulated: SimulatedClock, until: Instant?,
        stop: StopSignal, batchLimit: Int = IngestEngine.defaultBatchSize, clock: Clock = .system,
        afterCommit: (@Sendable (Lane) -> Void)? = nil, progress: ((LiveIngestSummary) -> Void)? = nil
    ) {
        self.store = store
        self.catalog = catalog
        self.sources = sources
        self.simulated = simulated
        self.until = until
        self.stop = stop
        self.batchLimit = batchLimit
        self.clock = clock
        self.afterCommit = afterCommit
        self.progress = progress
    }

    public func run() throws -> LiveIngestSummary {
        let started = clock.monotonic()
        var summary = LiveIngestSummary(simulatedThrough: simulated.now(wall: clock.now()))
        summary.streams = sources.map(\.streamName)
        let engine = IngestEngine(store: store, catalog: catalog, clock: clock, afterCommit: afterCommit)
        let producers = try Lane.allCases.map { lane in
            LaneProducer(
                lane: lane, sources: sources,
                cursors: try sources.map {
                    try store.cursor(stream: $0.streamName, lane: lane) ?? $0.initialCursor(lane)
                },
                catalog: catalog, simulated: simulated, until: until, batchLimit: batchLimit, stop: stop, clock: clock,
                writer: engine.writer)
        }
        let finished = DispatchGroup()
        for producer in producers {
            finished.enter()
            let thread = Thread {
                producer.run()
                finished.leave()
            }
            thread.name = "healthetl-\(producer.lane.rawValue)"
            thread.start()
        }
        while finished.wait(timeout: .now() + .milliseconds(500)) == .timedOut {
            summary.lanes = engine.tallies
            summary.simulatedThrough = simulated.now(wall: clock.now())
            summary.elapsedSeconds = clock.secondsSince(started)
            progress?(summary)
        }
        do {
            try engine.writer.drain()
        } catch {
            // The producers have stopped; what they queued after the failure was not committed.
            stop.raise()
            throw error
        }
        summary.lanes = engine.tallies
        summary.writerBusySeconds = engine.writer.secondsCommitting
        summary.interrupted = stop.isRaised
        let reached = simulated.now(wall: clock.now())
        summary.simulatedThrough = until.map { min($0, reached) } ?? reached
        summary.cursors = try store.cursors().filter { summary.streams.contains($0.stream) }
        summary.elapsedSeconds = clock.secondsSince(started)
        return summary
    }
}
