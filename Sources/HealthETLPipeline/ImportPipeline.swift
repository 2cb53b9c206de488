import HealthETLCore
import HealthETLStore

/// Drives one source read into the store: normalizes each record, gathers batches, and commits
/// every batch together with the cursor of the checkpoint that closes it.
///
/// Everything runs on the caller's thread, which owns the store. Re-running over input already
/// imported is safe: samples de-duplicate by content id and cursors never move back.
public final class ImportPipeline: SourceEventHandler {
    public static let defaultBatchSize = 5_000

    private let store: Store
    private let catalog: MetricCatalog
    private let batchSize: Int
    private let progress: ((ImportProgress) -> Void)?
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private let run: Int64
    private var normalizer: Normalizer
    private var stream: String?
    private var snapshot: SnapshotMark?
    private var endPosition: Int64?
    private var cursorFloor: [Lane: Int64] = [:]
    private var position: Int64 = 0
    private var pending = PendingBatch()
    private var coverage: [CoverageKey: SnapshotCoverage] = [:]
    private var lastCoverage: SnapshotCoverage?
    private var lastMetric: (type: String, metric: ResolvedMetric?)?
    private let worker: CommitWorker<PendingBatch>
    public private(set) var summary: ImportSummary

    /// - Parameters:
    ///   - source: the adapter's registry name, recorded with the run.
    ///   - input: the path as the user gave it.
    public init(
        store: Store, catalog: MetricCatalog, source: String, input: String,
        batchSize: Int = ImportPipeline.defaultBatchSize, progress: ((ImportProgress) -> Void)? = nil
    ) throws {
        self.store = store
        self.catalog = catalog
        self.batchSize = batchSize
        self.progress = progress
        self.started = clock.now
        self.normalizer = Normalizer(catalog: catalog, now: Store.systemNow())
        self.summary = ImportSummary(input: input, source: source)
        self.run = try store.beginImportRun(source: source, input: input)
        self.worker = CommitWorker(store: store)
    }

    deinit {
        worker.stop()
    }

    public func receive(_ event: SourceEvent) throws {
        switch event {
        case .streamStarted(let name, let now, let isFullSnapshot, let end):
            try start(stream: name, now: now, isFullSnapshot: isFullSnapshot, end: end)
        case .record(let record, let lane):
            summary.recordsRead += 1
            count(lane)
            add(normalizer.normalize(record, as: metric(named: record.type)), lane: lane, role: .record)
        case .correlation(let record, let lane):
            summary.correlations += 1
            add(normalizer.normalize(record), lane: lane, role: .correlation)
        case .auxiliaryRecord(let record, let lane):
            summary.otherRecords.read += 1
            add(normalizer.normalize(record), lane: lane, role: .auxiliary)
        case .correlationComponent(let record, let lane):
            summary.correlationComponents.read += 1
            add(normalizer.normalize(record), lane: lane, role: .component)
        case .deletion(let tombstone):
            pending.batch.tombstones.append(tombstone)
        case .workout(let workout, let lane):
            pending.batch.workouts.append(LanedWorkout(workout, lane: lane))
        case .activitySummary(let day):
            pending.batch.activitySummaries.append(day)
        case .document(let document):
            pending.batch.documents.append(document)
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

    // MARK: - Records

    private func start(stream name: String, now: Instant, isFullSnapshot: Bool, end: Int64?) throws {
        try settle()
        stream = name
        endPosition = end
        normalizer.now = now
        snapshot = isFullSnapshot ? SnapshotMark(run: run, takenAt: now) : nil
        summary.stream = name
        summary.exportDate = isFullSnapshot ? now.description : nil
        for lane in Lane.allCases {
            cursorFloor[lane] = try store.cursor(stream: name, lane: lane)
        }
        try store.describeImportRun(id: run, stream: name, snapshotTakenAt: snapshot?.takenAt)
    }

    /// The catalog entry for a type, remembered while the same type repeats.
    private func metric(named type: String) -> ResolvedMetric? {
        if let last = lastMetric, last.type == type { return last.metric }
        let metric = catalog.metric(named: type)
        lastMetric = (type, metric)
        return metric
    }

    private func count(_ lane: Lane) {
        switch lane {
        case .hot: summary.lanes.hot += 1
        case .cold: summary.lanes.cold += 1
        case .change: summary.lanes.change += 1
        }
    }

    private func add(_ outcome: NormalizationOutcome, lane: Lane, role: RecordRole) {
        switch outcome {
        case .accepted(let sample), .flagged(let sample):
            pending.batch.samples.append(LanedSample(sample, lane: lane))
            pending.roles.append(role)
            if snapshot != nil { cover(sample) }
        case .quarantined(let record):
            pending.batch.quarantined.append(record)
            switch role {
            case .record:
                summary.quarantined += 1
                summary.quarantinedByReason[record.reason.rawValue, default: 0] += 1
            case .component: summary.correlationComponents.quarantined += 1
            case .auxiliary: summary.otherRecords.quarantined += 1
            case .correlation: summary.correlationsQuarantined += 1
            }
        }
    }

    private func cover(_ sample: Sample) {
        let key = CoverageKey(source: sample.sourceName, metric: sample.metric)
        // Records come grouped by type and source: extend the last range without hashing.
        if var last = lastCoverage, last.sourceName == sample.sourceName, last.metric == sample.metric {
            if sample.start < last.earliestStart { last.earliestStart = sample.start }
            if sample.start > last.latestStart { last.latestStart = sample.start }
            lastCoverage = last
            return
        }
        if let last = lastCoverage { coverage[CoverageKey(source: last.sourceName, metric: last.metric)] = last }
        lastCoverage = coverage[key] ?? SnapshotCoverage(
            sourceName: sample.sourceName, metric: sample.metric, earliestStart: sample.start, latestStart: sample.start)
    }

    /// Every range covered so far, including the one being extended.
    private var coverageRanges: [SnapshotCoverage] {
        var all = coverage
        if let last = lastCoverage { all[CoverageKey(source: last.sourceName, metric: last.metric)] = last }
        return Array(all.values)
    }

    // MARK: - Committing

    private func flush() throws {
        guard !pending.batch.isEmpty || position > (cursorFloor[.cold] ?? -1) else { return }
        guard let stream else { throw ImportPipelineError.noStream(source: summary.source) }
        var batch = pending.batch
        batch.stream = stream
        batch.snapshot = snapshot
        let at = max(position, cursorFloor[.hot] ?? 0, cursorFloor[.cold] ?? 0)
        batch.cursors = [.hot: at, .cold: at]
        if !batch.tombstones.isEmpty {
            batch.cursors[.change] = (cursorFloor[.change] ?? 0) + Int64(batch.tombstones.count)
        }
        try worker.submit(batch, context: pending)
        cursorFloor.merge(batch.cursors) { max($0, $1) }
        tallyCompleted()
        pending = PendingBatch()
        summary.bytesRead = position
        progress?(
            ImportProgress(
                position: position, endPosition: endPosition, recordsRead: summary.recordsRead,
                elapsedSeconds: elapsed))
    }

    /// Waits for every submitted batch and counts it: the store is then idle and the caller's.
    private func settle() throws {
        try worker.drain()
        tallyCompleted()
    }

    private func tallyCompleted() {
        for completion in worker.takeCompletions() {
            tally(completion.result, roles: completion.context.roles, samples: completion.context.batch.samples)
        }
    }

    private func tally(_ result: CommitResult, roles: [RecordRole], samples: [LanedSample]) {
        for (index, outcome) in result.sampleOutcomes.enumerated() {
            let sample = samples[index].sample
            switch (roles[index], outcome) {
            case (.record, .inserted):
                if sample.flags.isEmpty {
                    summary.accepted += 1
                } else {
                    summary.flagged += 1
                    for name in sample.flags.names { summary.flaggedByReason[name, default: 0] += 1 }
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
        for range in coverageRanges.sorted(by: { ($0.metric, $0.sourceName) < ($1.metric, $1.sourceName) }) {
            var after: Int64 = 0
            while true {
                let page = try store.samplesMissing(
                    from: snapshot.takenAt, streamPrefix: family, coverage: range, notAfter: previous.takenAt,
                    afterRow: after, limit: batchSize)
                guard !page.tombstoneCandidates.isEmpty else { break }
                after = page.lastRow
                pending.batch.tombstones = page.tombstoneCandidates.map {
                    Tombstone(
                        sampleID: $0.id, metric: range.metric, start: $0.start, reason: "superseded_by_export",
                        deletedAt: snapshot.takenAt)
                }
                try flush()
                try settle()
            }
        }
    }

    private var elapsed: Double {
        let duration = clock.now - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private var summaryJSON: String {
        "{\"records_read\":\(summary.recordsRead),\"accepted\":\(summary.accepted),\"flagged\":\(summary.flagged),"
            + "\"quarantined\":\(summary.quarantined),\"duplicates\":\(summary.duplicates),"
            + "\"tombstones\":\(summary.tombstones),\"complete\":\(summary.complete)}"
    }
}

/// What a sample was in the input, for counting: a top-level record, a correlation, a record
/// nested in a correlation, or a record derived from another file.
private enum RecordRole {
    case record, correlation, component, auxiliary
}

/// Records gathered for the next commit, with the role each sample had in the input.
private struct PendingBatch {
    var batch = CommitBatch(stream: "", cursors: [:])
    var roles: [RecordRole] = []

    var count: Int {
        batch.samples.count + batch.quarantined.count + batch.tombstones.count + batch.workouts.count
            + batch.activitySummaries.count + batch.documents.count
    }
}

private struct CoverageKey: Hashable {
    let source: String
    let metric: String
}
