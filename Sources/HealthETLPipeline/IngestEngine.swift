import Foundation
import HealthETLCore
import HealthETLStore

/// The one ingest engine: every source's lanes — an export read front to back, or live streams
/// asked lane by lane — go through the normalizer into atomic commits with their cursors, hot
/// work first, counted by one `IngestTally` per lane. `ExportIngest` and `LiveIngest` feed it.
public final class IngestEngine: @unchecked Sendable {
    public static let defaultBatchSize = 5_000

    let store: any SampleLedger
    let catalog: MetricCatalog
    let clock: Clock
    private let lock = NSLock()
    private var talliesByLane: [Lane: IngestTally] = [:]
    private var notes: [BatchNotes] = []
    private let keepsNotes: Bool
    private(set) var writer: LaneWriter!

    /// - Parameters:
    ///   - keepsNotes: whether to keep every committed batch's normalizer notes for `takeNotes()`
    ///     (an export's snapshot coverage).
    ///   - afterCommit: called on the writer's thread after each commit with its lane (tier 1
    ///     sends hot work as it lands).
    init(
        store: any SampleLedger, catalog: MetricCatalog, clock: Clock, keepsNotes: Bool = false,
        afterCommit: (@Sendable (Lane) -> Void)? = nil
    ) {
        self.store = store
        self.catalog = catalog
        self.clock = clock
        self.keepsNotes = keepsNotes
        writer = LaneWriter(store: store, catalog: catalog, clock: clock) { [unowned self] lane, result, notes in
            self.lock.lock()
            self.talliesByLane[lane, default: IngestTally()].add(result, notes: notes)
            if self.keepsNotes { self.notes.append(notes) }
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

    /// The notes of the batches committed since the last call.
    func takeNotes() -> [BatchNotes] {
        lock.lock()
        defer { lock.unlock() }
        let taken = notes
        notes.removeAll()
        return taken
    }
}
