import HealthETLCore

/// What the reader gathered for one commit, before normalization.
struct RawBatch {
    struct Entry {
        var record: RawRecord
        var lane: Lane
        var role: RecordRole
    }

    var stream = ""
    /// The source's "now", for the normalizer's future-dated check.
    var now = Instant(millisecondsSinceEpoch: 0)
    var snapshot: SnapshotMark?
    var cursors: [Lane: Int64] = [:]
    var records: [Entry] = []
    var tombstones: [Tombstone] = []
    /// How many records came before each tombstone, in the order the source gave them.
    var tombstonePositions: [Int] = []
    var workouts: [LanedWorkout] = []
    var activitySummaries: [ActivitySummary] = []
    var documents: [ExportDocument] = []

    /// Room for a whole batch up front: growing the array would copy every record again.
    init(capacity: Int = 0) {
        records.reserveCapacity(capacity)
    }

    /// Empties the batch for the next one, keeping the records' storage: the reader refills it
    /// at once, and reusing it spares a large allocation per batch.
    mutating func clear() {
        records.removeAll(keepingCapacity: true)
        tombstones.removeAll()
        tombstonePositions.removeAll()
        workouts.removeAll()
        activitySummaries.removeAll()
        documents.removeAll()
        cursors = [:]
    }

    /// Adds what an event carries; stream announcements and checkpoints carry nothing to commit.
    mutating func append(_ event: SourceEvent) {
        switch event {
        case .record(let record, let lane): records.append(Entry(record: record, lane: lane, role: .record))
        case .correlation(let record, let lane): records.append(Entry(record: record, lane: lane, role: .correlation))
        case .auxiliaryRecord(let record, let lane): records.append(Entry(record: record, lane: lane, role: .auxiliary))
        case .correlationComponent(let record, let lane):
            records.append(Entry(record: record, lane: lane, role: .component))
        case .deletion(let tombstone):
            tombstones.append(tombstone)
            tombstonePositions.append(records.count)
        case .workout(let workout, let lane): workouts.append(LanedWorkout(workout, lane: lane))
        case .activitySummary(let day): activitySummaries.append(day)
        case .document(let document): documents.append(document)
        case .streamStarted, .resumed, .checkpoint, .sourcePriority: break
        }
    }

    var count: Int {
        records.count + tombstones.count + workouts.count + activitySummaries.count + documents.count
    }

    var isEmpty: Bool { count == 0 }
}
