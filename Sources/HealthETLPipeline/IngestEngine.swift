import Foundation
import HealthETLCore
import HealthETLStore

/// The one ingest engine: every source's lanes — an export read front to back, or live streams
/// asked lane by lane — go through the normalizer into atomic commits with their cursors, hot
/// work first, counted by one `IngestTally` per lane. `ArchiveIngest` and `LiveIngest` feed it.
public final class IngestEngine: @unchecked Sendable {
    public static let defaultBatchSize = 5_000

    let store: any SampleLedger
    let catalog: MetricCatalog
    let clock: Clock
    private let lock = NSLock()
    private var talliesByLane: [Lane: IngestTally] = [:]
    private(set) var writer: LaneWriter!

    /// - Parameters:
    ///   - afterCommit: called on the writer's thread after each commit with its lane (tier 1
    ///     sends hot work as it lands).
    init(
        store: any SampleLedger, catalog: MetricCatalog, clock: Clock, afterCommit: (@Sendable (Lane) -> Void)? = nil
    ) {
        self.store = store
        self.catalog = catalog
        self.clock = clock
        // A batch's notes are counted into its lane's tally and dropped: nothing reads them later,
        // and kept they would grow with every sample of an import.
        writer = LaneWriter(store: store, catalog: catalog, clock: clock) { [unowned self] lane, result, notes in
            self.lock.lock()
            self.talliesByLane[lane, default: IngestTally()].add(result, notes: notes)
            self.lock.unlock()
            afterCommit?(lane)
        }
    }

    deinit {
        // Queued batches are still committed, and the writer's callbacks use this engine.
        writer.stop()
        try? writer.drain()
    }

    /// What has been committed so far, per lane.
    public var tallies: [Lane: IngestTally] {
        lock.lock()
        defer { lock.unlock() }
        return talliesByLane
    }

    /// Every lane's tally added up.
    public var total: IngestTally {
        tallies.values.reduce(IngestTally(), +)
    }
}
