import HealthETLCore
import HealthETLStore

/// Feeds one export read into the ingest engine: the adapter's thread gathers records a batch at
/// a time per lane, and the engine's writer commits them with the cursor of the checkpoint that
/// closes them — hot records at every checkpoint (they overtake queued backfill), cold ones a
/// full batch at a time.
///
/// Each lane has its own cursor, moved only by that lane's batches (the writer takes hot batches
/// before queued cold ones, so a cursor carried by another lane's batch could be overtaken and
/// move back). A resumed read starts at the lowest cursor, and what a lane already committed is
/// dropped at each checkpoint, so a read killed at any instant and run again ends with the store
/// an uninterrupted read gives. The store is the writer's while
/// batches are in flight and this feed's only once they have settled.
public final class ArchiveIngest: SourceEventHandler {
    /// How far past this machine's clock an export may be dated (the phone's clock may run a
    /// little ahead). A later date is not believed: such an export supersedes nothing.
    public static let exportDateToleranceSeconds: Int64 = 86_400
    /// How far past a newer export's earliest sample a record it lacks may have rolled off: a
    /// record cut by retention can run this long past the cut (see `supersedeEarlierSnapshot`).
    public static let retentionMarginSeconds: Int64 = 86_400

    private let engine: IngestEngine
    private let batchSize: Int
    /// The size the next cold batch is handed over at: a sixteenth of `batchSize` at first,
    /// doubling to it, so the writer starts after a few hundred records, not a full batch's
    /// worth of reading (20 ms of an idle writer at the start of every import).
    private var coldBatchSize: Int
    /// Whether what the store's cursors cover is dropped (`false`: an input read again from its
    /// start is committed whole, its duplicates counted).
    /// The ingest's store, for what the engine does not do: cursors, runs and snapshots.
    private let store: any SampleLedger & CursorLedger & ImportRunLedger
    private let resumes: Bool
    private let progress: ((ImportProgress) -> Void)?
    private let started: Duration
    private let run: Int64
    /// The machine's wall clock when the run started: what an export date is checked against.
    private let readAt: Instant
    private var now: Instant
    private var stream: String?
    private var snapshot: SnapshotMark?
    private var endPosition: Int64?
    private var positions = PositionKind.bytes
    /// Committed positions per lane, from the store at the stream's start, moved on by every flush.
    private var committed: [Lane: Int64] = [:]
    /// The stream's cursors and snapshot coverage before this run: what a damaged read rolls back to.
    private var before: (cursors: [Lane: Int64], coverage: [SnapshotCoverage]) = ([:], [])
    private var position: Int64 = 0
    /// What each lane gathered, by `Lane.code` (arrays, not dictionaries: this is per record).
    /// Like `readSinceCheckpoint`, only the reading thread touches it, one access at a time, so
    /// it is not checked for exclusive access at run time.
    @exclusivity(unchecked) private var pending: [RawBatch]
    /// What each lane had gathered at the last checkpoint.
    private var marks: [RawBatch.Mark?] = [nil, nil, nil]
    /// Records read since the last checkpoint, per lane: counted once the checkpoint says they
    /// are new to the store.
    @exclusivity(unchecked) private var readSinceCheckpoint = [ReadCounts](repeating: ReadCounts(), count: 3)
    public private(set) var summary: ImportSummary

    /// - Parameters:
    ///   - source: the adapter's registry name, recorded with the run.
    ///   - input: the path as the user gave it.
    public init(
        store: any SampleLedger & CursorLedger & ImportRunLedger, catalog: MetricCatalog, source: String, input: String,
        batchSize: Int = IngestEngine.defaultBatchSize, resumes: Bool = true, clock: Clock = .system,
        afterCommit: (@Sendable (Lane) -> Void)? = nil, progress: ((ImportProgress) -> Void)? = nil
    ) throws {
        self.store = store
        self.resumes = resumes
        // Only the cold lane is reserved a whole batch up front: it fills batch after batch, while
        // the hot lane commits at every checkpoint, mostly small (a reservation there is memory
        // held by every queued hot batch).
        self.pending = [RawBatch(), RawBatch(capacity: batchSize), RawBatch()]
        self.engine = IngestEngine(
            store: store, catalog: catalog, clock: clock, afterCommit: afterCommit)
        self.batchSize = batchSize
        self.coldBatchSize = max(1, batchSize / 16)
        self.progress = progress
        self.started = clock.monotonic()
        self.readAt = clock.now()
        self.now = readAt
        self.summary = ImportSummary(input: input, source: source)
        self.run = try store.beginImportRun(source: source, input: input, stream: nil, snapshotTakenAt: nil)
    }

    /// The cursors an adapter resumes after: every lane of every stream this source wrote.
    public static func resumePoints(store: any CursorLedger, source: String) throws -> [StreamCursor] {
        try store.cursors().filter { $0.stream.hasPrefix(source + ":") }
    }

    public func receive(_ event: consuming SourceEvent) throws {
        switch event {
        case .streamStarted(let name, let now, let isFullSnapshot, let end, let positions):
            self.positions = positions
            try start(stream: name, now: now, isFullSnapshot: isFullSnapshot, end: end)
        case .record(_, let lane):
            gather(event, lane: lane, role: .record)
        case .correlation(_, let lane):
            gather(event, lane: lane, role: .correlation)
        case .auxiliaryRecord(_, let lane):
            gather(event, lane: lane, role: .auxiliary)
        case .correlationComponent(_, let lane):
            gather(event, lane: lane, role: .component)
        case .workout(_, let lane):
            pending[lane.code].append(event)
        case .deletion:
            pending[Lane.change.code].append(event)
        case .activitySummary, .document:
            // No lane of their own: the cold cursor covers them.
            pending[Lane.cold.code].append(event)
        case .sourcePriority(let sources):
            // Not a sample: kept outside the batches, once the writer has settled.
            try settle()
            try store.replaceSourcePriority(source: summary.source, sourcesByMetric: sources)
        case .resumed(let at):
            summary.resumedAtByte = at
            position = max(position, at)
        case .checkpoint(let cursor):
            try checkpoint(at: cursor.position)
        }
    }

    /// Commits what is left, applies a newer complete snapshot's deletions, and records the run.
    public func finish(_ report: SourceReadReport) throws -> ImportSummary {
        try flush(lanes: [.hot, .cold, .change])
        try settle()
        summary.warnings.merge(report.warnings) { $0 + $1 }
        summary.complete = report.complete
        summary.problem = report.problem
        if report.damagedContent, let stream {
            let removed = try store.rollBack(
                run: run, stream: stream, cursors: before.cursors, coverage: before.coverage)
            summary.warnings["samples_rolled_back"] = removed
        }
        if report.complete, let snapshot, let stream {
            try supersedeEarlierSnapshot(snapshot, stream: stream)
        }
        return try close(complete: report.complete)
    }

    /// Records a run that failed before it could finish, with what went wrong.
    public func abandon(problem: String) throws -> ImportSummary {
        // What was committed before the failure counts; a commit that failed is reported by
        // the caller's error.
        try? settle()
        summary.complete = false
        summary.problem = problem
        return try close(complete: false)
    }

    // MARK: - Reading

    private func start(stream name: String, now: Instant, isFullSnapshot: Bool, end: Int64?) throws {
        try settle()
        stream = name
        endPosition = end
        // A date beyond the clock would make every real export after it look older, and its
        // deletions could never be undone: its records are read, but it is no snapshot, and
        // records are judged future-dated against the clock instead.
        let believable = now <= readAt.adding(seconds: Self.exportDateToleranceSeconds)
        if !believable { summary.warnings["export_date_in_future", default: 0] += 1 }
        self.now = believable ? now : readAt
        snapshot = isFullSnapshot && believable ? SnapshotMark(run: run, takenAt: now) : nil
        summary.stream = name
        summary.exportDate = snapshot?.takenAt.description
        for lane in Lane.allCases {
            committed[lane] = try store.cursor(stream: name, lane: lane) ?? 0
        }
        before = (committed, try store.snapshotCoverage(stream: name))
        try store.describeImportRun(id: run, stream: name, snapshotTakenAt: snapshot?.takenAt)
    }

    private func gather(_ event: consuming SourceEvent, lane: Lane, role: RecordRole) {
        pending[lane.code].append(event)
        readSinceCheckpoint[lane.code].add(role)
    }

    /// Everything gathered so far lies before `boundary`. A lane that committed past it already drops
    /// what it gathered since the last checkpoint (a resumed read passing over committed data);
    /// the others count it as read.
    private func checkpoint(at boundary: Int64) throws {
        position = max(position, boundary)
        for lane in [Lane.hot, .cold] {
            if resumes, boundary <= committed[lane] ?? 0 {
                if let mark = marks[lane.code] {
                    pending[lane.code].truncate(to: mark)
                } else {
                    pending[lane.code].clear()
                }
            } else {
                count(readSinceCheckpoint[lane.code], lane: lane)
            }
            marks[lane.code] = pending[lane.code].mark
            readSinceCheckpoint[lane.code] = ReadCounts()
        }
        // Hot work goes at once, backfill a full batch at a time; with a full cold batch the hot
        // cursor moves too (an empty hot batch), so a resumed read can start near the cold one.
        // While two hot batches wait for the writer, hot work joins the next one, up to a batch's
        // size, and the hot cursor moves with it: waiting here, the reader stood still for 10 %
        // of an import.
        let coldDue = pending[Lane.cold.code].size >= coldBatchSize
        let hot = pending[Lane.hot.code]
        let hotDue = hot.size >= batchSize || (engine.writer.hasRoom(.hot) && (!hot.isEmpty || coldDue))
        var due: [Lane] = []
        if hotDue { due.append(.hot) }
        if coldDue { due.append(.cold) }
        if !due.isEmpty { try flush(lanes: due) }
    }

    private func count(_ read: ReadCounts, lane: Lane) {
        summary.recordsRead += read.records
        if lane == .hot { summary.lanes.hot += read.records } else { summary.lanes.cold += read.records }
        summary.correlationComponents.read = (summary.correlationComponents.read ?? 0) + read.components
        summary.otherRecords.read = (summary.otherRecords.read ?? 0) + read.auxiliary
    }

    // MARK: - Committing

    /// Hands each lane's gathered batch to the writer with the cursor it earns: its own lane's
    /// only, never lower than the committed one.
    private func flush(lanes: [Lane]) throws {
        guard let stream else {
            if pending.contains(where: { !$0.isEmpty }) { throw IngestError.noStream(source: summary.source) }
            return
        }
        for lane in lanes {
            var batch = pending[lane.code]
            var cursors: [Lane: Int64] = [:]
            switch lane {
            case .hot, .cold:
                let committedAt = committed[lane] ?? 0
                if position > committedAt || !batch.isEmpty { cursors[lane] = max(position, committedAt) }
            case .change:
                if !batch.tombstones.isEmpty {
                    cursors[.change] = (committed[.change] ?? 0) + Int64(batch.tombstones.count)
                }
            }
            guard !cursors.isEmpty else { continue }
            batch.stream = stream
            batch.now = now
            batch.snapshot = snapshot
            batch.cursors = cursors
            try submit(batch, lane: lane)
            if lane == .cold { coldBatchSize = min(batchSize, coldBatchSize * 2) }
            committed.merge(cursors) { max($0, $1) }
            pending[lane.code].clear()
            marks[lane.code] = nil
        }
        summary.bytesRead = position - summary.resumedAtByte
        progress?(
            ImportProgress(
                position: position, endPosition: endPosition, positions: positions,
                recordsRead: summary.recordsRead,
                elapsedSeconds: elapsed))
    }

    /// The writer normalizes when it has room; otherwise this thread does, its batch and queued
    /// ones, rather than wait.
    private func submit(_ batch: RawBatch, lane: Lane) throws {
        try engine.writer.submit(.gathered(batch), lane: lane, normalizingWith: normalizer)
    }

    private lazy var normalizer = BatchNormalizer(catalog: engine.catalog)

    /// Waits for every submitted batch: the store is then idle and this feed's.
    private func settle() throws {
        try engine.writer.drain()
    }

    /// A complete export dated after the last complete one replaces it: what the older one had and
    /// the newer one lacks, inside the range the newer one covers, was deleted.
    ///
    /// The range of a source and metric runs from the export's retention horizon to that source
    /// and metric's latest sample. Retention (Health Connect's auto-delete, a phone out of room)
    /// drops whole records that start before one instant, every metric at once, so what the older
    /// export had before the newer one's earliest sample of any kind rolled off and stays. The
    /// horizon is that earliest sample plus `retentionMarginSeconds`: a rolled-off record's later
    /// points (a heart-rate series running past the cut) must not read as deletions. A record
    /// deleted by hand that was the oldest of its own source and metric lies past the horizon and
    /// is a deletion; within the margin of the export's earliest sample, no export can tell it
    /// from roll-off, and it stays. Past a source and metric's latest sample, a deletion waits for
    /// a later sample of it.
    private func supersedeEarlierSnapshot(_ snapshot: SnapshotMark, stream: String) throws {
        try settle()
        guard
            let previous = try store.latestCompleteSnapshot(
                source: summary.source, excluding: run,
                notAfter: readAt.adding(seconds: Self.exportDateToleranceSeconds)),
            previous.takenAt < snapshot.takenAt
        else { return }
        let family = String(stream.prefix { $0 != ":" }) + ":"
        let coverage = try store.snapshotCoverage(stream: stream)
        guard let earliest = coverage.map(\.earliestStart).min() else { return }
        let horizon = earliest.adding(seconds: Self.retentionMarginSeconds)
        for covered in coverage.sorted(by: { ($0.metric, $0.sourceName) < ($1.metric, $1.sourceName) }) {
            var range = covered
            range.earliestStart = min(covered.earliestStart, horizon)
            var after: Int64 = 0
            while true {
                let page = try store.samplesMissing(
                    from: snapshot.takenAt, streamPrefix: family, coverage: range, notAfter: previous.takenAt,
                    afterRow: after, limit: batchSize)
                guard !page.tombstoneCandidates.isEmpty else { break }
                after = page.lastRow
                pending[Lane.change.code].tombstones = page.tombstoneCandidates.map {
                    Tombstone(
                        sampleID: $0.id, metric: range.metric, start: $0.start, reason: "superseded_by_export",
                        deletedAt: snapshot.takenAt)
                }
                try flush(lanes: [.change])
                try settle()
            }
        }
    }

    private func close(complete: Bool) throws -> ImportSummary {
        summary.record(engine.total)
        // Positions in the stream's own terms: a FIT import's are files, not bytes.
        summary.positionUnit = positions.unit
        summary.bytesRead = positions.count(position) - positions.count(summary.resumedAtByte)
        summary.resumedAtByte = positions.count(summary.resumedAtByte)
        summary.lanes.change = summary.tombstones
        summary.elapsedSeconds = elapsed
        try store.finishImportRun(id: run, complete: complete, summaryJSON: summaryJSON)
        return summary
    }

    private var elapsed: Double { engine.clock.secondsSince(started) }

    private var summaryJSON: String {
        "{\"records_read\":\(summary.recordsRead),\"accepted\":\(summary.accepted),\"flagged\":\(summary.flagged),"
            + "\"quarantined\":\(summary.quarantined),\"duplicates\":\(summary.duplicates),"
            + "\"deleted_earlier\":\(summary.deletedEarlier),\"tombstones\":\(summary.tombstones),"
            + "\"resumed_at_byte\":\(summary.resumedAtByte),\"complete\":\(summary.complete)}"
    }
}

/// Records of one lane read since the last checkpoint, by what they are.
private struct ReadCounts {
    var records = 0
    var components = 0
    var auxiliary = 0

    mutating func add(_ role: RecordRole) {
        switch role {
        case .record: records += 1
        case .component: components += 1
        case .auxiliary: auxiliary += 1
        case .correlation: break
        }
    }
}
