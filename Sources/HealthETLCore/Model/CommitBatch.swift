/// Everything one store transaction writes: a batch of one source stream and the cursor advances
/// it earns.
///
/// This is the only unit the store commits, so a cursor can never get ahead of its data.
public struct CommitBatch: Sendable {
    /// The source stream the batch comes from, e.g. `apple_health:export`.
    public var stream: String
    public var samples: [LanedSample]
    public var quarantined: [QuarantinedRecord]
    public var tombstones: [Tombstone]
    /// Where each tombstone falls among `samples` in the source's order: tombstone `i` comes after
    /// the first `tombstonePositions[i]` samples (after all of them when there is no entry). So a
    /// sample deleted and back at the source within one batch stays, and one back and then
    /// deleted goes.
    public var tombstonePositions: [Int] = []
    public var workouts: [LanedWorkout]
    public var activitySummaries: [ActivitySummary]
    public var documents: [ExportDocument]
    /// Set when the batch comes from a full snapshot (an export): every sample in it, new or
    /// already stored, is marked as seen in this snapshot, so a later complete snapshot can tell
    /// what vanished.
    public var snapshot: SnapshotMark?
    /// With a snapshot: the time range each source and metric covers in this batch, widened
    /// into what the snapshot covers as a whole.
    public var coverage: [SnapshotCoverage] = []
    /// New cursor positions by lane; at least one, since a batch that moves no cursor could be
    /// committed again after a crash without anyone knowing.
    public var cursors: [Lane: Int64]

    public init(
        stream: String, samples: [LanedSample] = [], quarantined: [QuarantinedRecord] = [],
        tombstones: [Tombstone] = [], workouts: [LanedWorkout] = [], activitySummaries: [ActivitySummary] = [],
        documents: [ExportDocument] = [], snapshot: SnapshotMark? = nil, cursors: [Lane: Int64]
    ) {
        self.stream = stream
        self.samples = samples
        self.quarantined = quarantined
        self.tombstones = tombstones
        self.workouts = workouts
        self.activitySummaries = activitySummaries
        self.documents = documents
        self.snapshot = snapshot
        self.cursors = cursors
    }

    /// How many of `samples` come before tombstone `index`.
    public func position(ofTombstone index: Int) -> Int {
        index < tombstonePositions.count ? min(tombstonePositions[index], samples.count) : samples.count
    }

    public var isEmpty: Bool {
        samples.isEmpty && quarantined.isEmpty && tombstones.isEmpty && workouts.isEmpty
            && activitySummaries.isEmpty && documents.isEmpty
    }
}
