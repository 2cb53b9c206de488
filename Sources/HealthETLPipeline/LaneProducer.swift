import Foundation
import HealthETLCore

/// One lane's thread in a live run: asks each source in turn for its next batch, normalizes
/// it and hands it to the writer; sleeps (in wall time) while every source is waiting for the
/// clock.
final class LaneProducer: @unchecked Sendable {
    let lane: Lane
    private let sources: [any LaneSource]
    private var cursors: [Int64]
    private let normalizer: BatchNormalizer
    private let simulated: SimulatedClock
    private let until: Instant?
    private let batchLimit: Int
    private let stop: StopSignal
    private let clock: Clock
    private let writer: LaneWriter

    /// Never sleep longer than this, so a stop is noticed promptly.
    private static let longestNap = 0.25

    init(
        lane: Lane, sources: [any LaneSource], cursors: [Int64], catalog: MetricCatalog, simulated: SimulatedClock,
        until: Instant?, batchLimit: Int, stop: StopSignal, clock: Clock, writer: LaneWriter
    ) {
        self.lane = lane
        self.sources = sources
        self.cursors = cursors
        self.normalizer = BatchNormalizer(catalog: catalog)
        self.simulated = simulated
        self.until = until
        self.batchLimit = batchLimit
        self.stop = stop
        self.clock = clock
        self.writer = writer
    }

    func run() {
        var active = Array(sources.indices)
        while !active.isEmpty, !stop.isRaised {
            var soonest: Instant?
            var progressed = false
            for index in active {
                guard !stop.isRaised else { return }
                let now = simulated.now(wall: clock.now())
                let bounded = until.map { min($0, now) } ?? now
                switch sources[index].next(lane, after: cursors[index], now: bounded, limit: batchLimit) {
                case .batch(let events, let cursor):
                    guard submit(events, cursor: cursor, source: sources[index], now: bounded) else { return }
                    cursors[index] = cursor
                    progressed = true
                case .waiting(let instant):
                    if let until, instant > until {
                        active.removeAll { $0 == index }
                    } else {
                        soonest = soonest.map { min($0, instant) } ?? instant
                    }
                case .finished:
                    active.removeAll { $0 == index }
                }
            }
            if !progressed, let soonest {
                let seconds = simulated.secondsUntil(soonest, wall: clock.now())
                Thread.sleep(forTimeInterval: min(Self.longestNap, max(0.001, seconds)))
            }
        }
    }

    private func submit(_ events: [SourceEvent], cursor: Int64, source: any LaneSource, now: Instant) -> Bool {
        var raw = RawBatch(capacity: events.count)
        raw.stream = source.streamName
        raw.now = now
        raw.cursors = [lane: cursor]
        for event in events { raw.append(event) }
        let (batch, notes) = normalizer.normalize(raw)
        do {
            try writer.submit(.normalized(batch, notes), lane: lane)
            return true
        } catch {
            // The writer failed or stopped; the run reports why.
            return false
        }
    }
}
