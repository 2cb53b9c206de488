import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import Synthetic

/// `simulate`: synthetic people's streams through the live ingest, as finished history or
/// following a simulated clock, with tier 1 hooked to every hot commit when a sink is configured.
/// A stream keeps the settings it was created with (in the store), so running again continues it.
public struct Simulation: Sendable {
    public let store: StoreDirectory
    public let catalog: MetricCatalog
    public let clock: Clock

    public init(store: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system) {
        self.store = store
        self.catalog = catalog
        self.clock = clock
    }

    /// What one run did: the ingest's summary, and tier 1's report when a sink is configured.
    public struct Outcome: Sendable {
        public var ingest: LiveIngestSummary
        public var realTime: UploadReport?
    }

    /// Runs until the streams reach their end (or `until` with `follow`), or `stop` is raised.
    /// - Parameters:
    ///   - realTimeProblem: told when tier 1 is skipped (unusable sink settings) or a send
    ///     fails; what failed is left queued for `upload`.
    ///   - progress: called about twice a second with the summary so far.
    public func run(
        _ request: SimulationRequest, stop: StopSignal,
        realTimeProblem: @escaping @Sendable (_ skipped: Bool, _ error: any Error) -> Void = { _, _ in },
        progress: ((LiveIngestSummary) -> Void)? = nil
    ) throws -> Outcome {
        let store = try Store(directory: store, clock: clock)
        let now = clock.now()
        var people: [SyntheticPerson] = []
        var shared: SimulatedClock?
        for person in 1...request.people {
            var settings = try settings(for: person, request: request, store: store, now: now)
            if request.follow {
                // One clock for everyone: the first stream's decides, the others follow it.
                let current = shared ?? Self.clock(continuing: settings, speed: request.speed, now: now)
                shared = current
                settings.clock = current
            }
            try store.setStreamSettings(
                settings.streamName, to: String(decoding: try JSONEncoder().encode(settings), as: UTF8.self))
            people.append(SyntheticPerson(settings: settings, catalog: catalog))
        }
        let origin = people[0].settings.origin
        let simulated = shared ?? SimulatedClock(simulated: origin, wall: now, speed: 0)
        let follower = try realTimeFollower(store: store, live: request.follow, problem: realTimeProblem)
        let ingest = LiveIngest(
            store: store, catalog: catalog, sources: people, simulated: simulated,
            until: request.follow ? request.until : origin, stop: stop, batchLimit: request.batchSize, clock: clock,
            afterCommit: { follower?.committed($0) }, progress: progress)
        let summary = try ingest.run()
        return Outcome(ingest: summary, realTime: follower?.finish())
    }

    /// Tier 1 when a sink is configured; settings it cannot use are told and tier 1 is skipped.
    private func realTimeFollower(
        store: Store, live: Bool, problem: @escaping @Sendable (Bool, any Error) -> Void
    ) throws -> RealTimeFollower? {
        let sender: RealTimeSender?
        do {
            sender = try RealTimeSender(store: self.store, catalog: catalog, clock: clock)
        } catch {
            problem(true, error)
            return nil
        }
        guard let sender else { return nil }
        return RealTimeFollower(sender: sender, afterSequence: try store.lastSampleSequence(), live: live) {
            problem(false, $0)
        }
    }

    /// The stream's settings: as stored when it exists (options given now must agree), else
    /// from the request.
    private func settings(for person: Int, request: SimulationRequest, store: Store, now: Instant) throws
        -> SyntheticSettings
    {
        let requested = request.settings(for: person, now: now)
        guard let text = try store.streamSettings(requested.streamName) else { return requested }
        let stored: SyntheticSettings
        do {
            stored = try JSONDecoder().decode(SyntheticSettings.self, from: Data(text.utf8))
        } catch {
            throw SimulationError.unreadableSettings(stream: requested.streamName, reason: "\(error)")
        }
        let conflicts = request.conflicts(with: stored, requested: requested)
        guard conflicts.isEmpty else {
            throw SimulationError.conflictingOptions(stream: requested.streamName, createdWith: conflicts)
        }
        return stored
    }

    /// A follow run's clock: the stream's own, continuing (time that passed while it was
    /// stopped counts, like a phone that was off), unless the speed changes or it never ran live.
    private static func clock(continuing settings: SyntheticSettings, speed: Double?, now: Instant) -> SimulatedClock {
        if let existing = settings.clock, speed == nil || speed == existing.speed { return existing }
        let from = settings.clock?.now(wall: now) ?? settings.origin
        return SimulatedClock(simulated: from, wall: now, speed: speed ?? settings.clock?.speed ?? 1)
    }
}
