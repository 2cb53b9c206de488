import Foundation
import HealthETLCore
import HealthETLStore

/// Drives one source read into the store in two stages: the caller's thread reads and gathers
/// records a batch at a time, and a commit stage on its own thread writes every batch together
/// with the cursor of the checkpoint that closes it. Whichever thread has time normalizes: the
/// commit stage does, unless its queue is full, and then the reader does rather than wait.
/// That balances the two for any mix of parsing and writing cost. (A third thread for the
/// normalizer was measured slower on two cores.)
///
/// The store is used by the commit stage while batches are in flight and by the caller only once
/// they have settled. Re-running over input already imported is safe: samples de-duplicate by
/// content id and cursors never move back.
public final class ImportPipeline: SourceEventHandler {
    public static let defaultBatchSize = 5_000

    private let store: Store
    private let batchSize: Int
    private let progress: ((ImportProgress) -> Void)?
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private let run: Int64
    private var now: Instant
    private var stream: String?
    private var snapshot: SnapshotMark?
    private var endPosition: Int64?
    private var cursorFloor: [Lane: Int64] = [:]
    private var position: Int64 = 0
    private var pending: RawBatch
    private var coverage: [CoverageKey: SnapshotCoverage] = [:]
    private let completions = Completions()
    private let normalizer: BatchNormalizer
    private let commitStage: BackgroundStage<CommitJob>
    public private(set) var summary: ImportSummary

    /// - Parameters:
    ///   - source: the adapter's registry name, recorded with the run.
    ///   - input: the path as the user gave it.
    public init(
        store: Store, catalog: MetricCatalog, source: String, input: String,
        batchSize: Int = ImportPipeline.defaultBatchSize, progress: ((ImportProgress) -> Void)? = nil
    ) throws {
        self.store = store
        self.batchSize = batchSize
        self.progress = progress
        self.started = clock.now
        self.now = Store.systemNow()
        self.summary = ImportSummary(input: input, source: source)
        self.run = try store.beginImportRun(source: source, input: input)
        self.pending = RawBatch(capacity: batchSize)
        let writer = CommitWorker(store: store, normalizer: BatchNormalizer(catalog: catalog))
        let completions = completions
        self.commitStage = BackgroundStage<CommitJob>(name: "healthetl-commit") { job in
            let (batch, notes) =
                switch job {
                case .gathered(let raw): writer.normalizer.normalize(raw)
                case .normalized(let batch, let notes): (batch, notes)
                }
            completions.append(try writer.store.commit(batch), notes)
        }
        self.normalizer = BatchNormalizer(catalog: catalog)
    }

    deinit {
        commitStage.stop()
    }

    public func receive(_ event: SourceEvent) throws {
        switch event {
        case .streamStarted(let name, let now, let isFullSnapshot, let end):
            try start(stream: name, now: now, isFullSnapshot: isFullSnapshot, end: end)
        case .record(_, let lane):
            summary.recordsRead += 1
            count(lane)
            pending.append(event)
        case .correlation:
            summary.correlations += 1
            pending.append(event)
        case .auxiliaryRecord:
            summary.otherRecords.read += 1
            pending.append(event)
        case .correlationComponent:
            summary.correlationComponents.read += 1
            pending.append(event)
        case .deletion, .workout, .activitySummary, .document:
            pending.append(event)
        case .checkpoint(let cursor):
            position = max(position, cursor.position)
            if pending.count >= batchSize { try flush() }
        }
    }

    /// Commits what is left, applies a newer complete snapshot's deletions, and records the run.
    public func finish(_ report: SourceReadReport) throws -> ImportSummary {
        try flush()
        try settle()
        summary.warnings.merge(report.warnings) { $0 + $1 }
        summary.complete = report.complete
        summary.problem = report.problem
        if report.complete, let snapshot, let stream {
            try supersedeEarlierSnapshot(snapshot, stream: stream)
        }
        summary.elapsedSeconds = elapsed
        try store.finishImportRun(id: run, complete: report.complete, summaryJSON: summaryJSON)
        return summary
    }

    /// Records a run that failed before it could finish, with what went wrong.
    public func abandon(problem: String) throws -> ImportSummary {
        // What was committed before the failure counts; a commit that failed is reported by
        // the caller's error.
        try? settle()
        summary.complete = false
        summary.problem = problem
        summary.elapsedSeconds = elapsed
        try store.finishImportRun(id: run, complete: false, summaryJSON: summaryJSON)
        return summary
    }

    // MARK: - Reading

    private func start(stream name: String, now: Instant, isFullSnapshot: Bool, end: Int64?) throws {
        try settle()
        stream = name
        endPosition = end
        self.now = now
        snapshot = isFullSnapshot ? SnapshotMark(run: run, takenAt: now) : nil
        summary.stream = name
        summary.exportDate = isFullSnapshot ? now.description : nil
        for lane in Lane.allCases {
            cursorFloor[lane] = try store.cursor(stream: name, lane: lane)
        }
        try store.describeImportRun(id: run, stream: name, snapshotTakenAt: snapshot?.takenAt)
    }

    private func count(_ lane: Lane) {
        switch lane {
        case .hot: summary.lanes.hot += 1
        case .cold: summary.lanes.cold += 1
        case .change: summary.lanes.change += 1
        }
    }

    // MARK: - Committing

    /// Hands the gathered records to the commit stage with the cursors they earn.
    private func flush() throws {
        guard !pending.isEmpty || position > (cursorFloor[.cold] ?? -1) else { return }
        guard let stream else { throw ImportPipelineError.noStream(source: summary.source) }
        pending.stream = stream
        pending.now = now
        pending.snapshot = snapshot
        let at = max(position, cursorFloor[.hot] ?? 0, cursorFloor[.cold] ?? 0)
        pending.cursors = [.hot: at, .cold: at]
        if !pending.tombstones.isEmpty {
            pending.cursors[.change] = (cursorFloor[.change] ?? 0) + Int64(pending.tombstones.count)
        }
        if commitStage.hasRoom {
            try commitStage.submit(.gathered(pending))
        } else {
            let (batch, notes) = normalizer.normalize(pending)
            try commitStage.submit(.normalized(batch, notes))
        }
        cursorFloor.merge(pending.cursors) { max($0, $1) }
        pending.clear()
        tallyCompleted()
        summary.bytesRead = position
        progress?(
            ImportProgress(
                position: position, endPosition: endPosition, recordsRead: summary.recordsRead,
                elapsedSeconds: elapsed))
    }

    /// Waits for every submitted batch and counts it: the store is then idle and the caller's.
    private func settle() throws {
        try commitStage.drain()
        tallyCompleted()
    }

    private func tallyCompleted() {
        for (result, notes) in completions.take() {
            tally(result, notes: notes)
        }
    }

    private func tally(_ result: CommitResult, notes: BatchNotes) {
        for (index, outcome) in result.sampleOutcomes.enumerated() {
            switch (notes.roles[index], outcome) {
            case (.record, .inserted):
                let flags = notes.flags[index]
                if flags.isEmpty {
                    summary.accepted += 1
                } else {
                    summary.flagged += 1
                    for name in flags.names { summary.flaggedByReason[name, default: 0] += 1 }
                }
            case (.record, .duplicate), (.record, .previouslyDeleted):
                summary.duplicates += 1
            case (.component, .inserted): summary.correlationComponents.stored += 1
            case (.component, .duplicate), (.component, .previouslyDeleted):
                summary.correlationComponents.alreadyStored += 1
            case (.auxiliary, .inserted): summary.otherRecords.stored += 1
            case (.auxiliary, .duplicate), (.auxiliary, .previouslyDeleted): summary.otherRecords.alreadyStored += 1
            case (.correlation, _): break
            }
        }
        summary.quarantined += notes.quarantinedByRole[.record] ?? 0
        summary.correlationComponents.quarantined += notes.quarantinedByRole[.component] ?? 0
        summary.otherRecords.quarantined += notes.quarantinedByRole[.auxiliary] ?? 0
        summary.correlationsQuarantined += notes.quarantinedByRole[.correlation] ?? 0
        summary.quarantinedByReason.merge(notes.quarantinedByReason, uniquingKeysWith: +)
        coverage.merge(notes.coverage) { $0.union($1) }
        summary.tombstones += result.tombstoned
        summary.lanes.change += result.tombstoned
        summary.workouts += result.workouts
        summary.workoutDuplicates += result.workoutDuplicates
        summary.activitySummaries += result.activitySummaries
        summary.documents += result.documents
    }

    /// A complete export dated after the last complete one replaces it: what the older one had,
    /// inside the range both cover for a source and metric, and the newer one lacks, was deleted.
    private func supersedeEarlierSnapshot(_ snapshot: SnapshotMark, stream: String) throws {
        try settle()
        guard let previous = try store.latestCompleteSnapshot(source: summary.source, excluding: run),
            previous.takenAt < snapshot.takenAt
        else { return }
        let family = String(stream.prefix { $0 != ":" }) + ":"
        for range in coverage.values.sorted(by: { ($0.metric, $0.sourceName) < ($1.metric, $1.sourceName) }) {
            var after: Int64 = 0
            while true {
                let page = try store.samplesMissing(
                    from: snapshot.takenAt, streamPrefix: family, coverage: range, notAfter: previous.takenAt,
                    afterRow: after, limit: batchSize)
                guard !page.tombstoneCandidates.isEmpty else { break }
                after = page.lastRow
                pending.tombstones = page.tombstoneCandidates.map {
                    Tombstone(
                        sampleID: $0.id, metric: range.metric, start: $0.start, reason: "superseded_by_export",
                        deletedAt: snapshot.takenAt)
                }
                try flush()
                try settle()
            }
        }
    }

    private var elapsed: Double { (clock.now - started).seconds }

    private var summaryJSON: String {
        "{\"records_read\":\(summary.recordsRead),\"accepted\":\(summary.accepted),\"flagged\":\(summary.flagged),"
            + "\"quarantined\":\(summary.quarantined),\"duplicates\":\(summary.duplicates),"
            + "\"tombstones\":\(summary.tombstones),\"complete\":\(summary.complete)}"
    }
}

/// A batch for the commit stage, normalized by the reader or still to be.
private enum CommitJob {
    case gathered(RawBatch)
    case normalized(CommitBatch, BatchNotes)
}

/// What the commit stage's thread works with. The normalizer is used only there; the store
/// only while batches are in flight.
private struct CommitWorker: @unchecked Sendable {
    let store: Store
    let normalizer: BatchNormalizer
}

/// Commit results waiting to be counted on the caller's thread.
private final class Completions: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(CommitResult, BatchNotes)] = []

    func append(_ result: CommitResult, _ notes: BatchNotes) {
        lock.lock()
        items.append((result, notes))
        lock.unlock()
    }

    func take() -> [(CommitResult, BatchNotes)] {
        lock.lock()
        defer { lock.unlock() }
        let taken = items
        items.removeAll()
        return taken
    }
}
