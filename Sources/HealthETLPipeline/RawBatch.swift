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
    /// What the items carry beside themselves: a workout's route points, events, statistics and
    /// activities, a record's series points (an HRV record's beats). An item with a long tail
    /// weighs what it carries, so a batch of them stays the size of any other (counted as one
    /// each, an export's workouts piled up in one batch with their routes, and an import's memory
    /// grew with the export: 164 MB at 4 million records; 5,000 HRV records of some 64 beats each
    /// held 30 MB more than other batches).
    var carriedRows = 0
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
        carriedRows = 0
        activitySummaries.removeAll()
        documents.removeAll()
        cursors = [:]
    }

    /// Adds what an event carries; stream announcements and checkpoints carry nothing to commit.
    mutating func append(_ event: consuming SourceEvent) {
        switch event {
        case .record(let record, let lane): append(record, lane: lane, role: .record)
        case .correlation(let record, let lane): append(record, lane: lane, role: .correlation)
        case .auxiliaryRecord(let record, let lane): append(record, lane: lane, role: .auxiliary)
        case .correlationComponent(let record, let lane): append(record, lane: lane, role: .component)
        case .deletion(let tombstone):
            tombstones.append(tombstone)
            tombstonePositions.append(records.count)
        case .workout(let workout, let lane):
            workouts.append(LanedWorkout(workout, lane: lane))
            carriedRows += Self.rows(beside: workout)
        case .activitySummary(let day): activitySummaries.append(day)
        case .document(let document): documents.append(document)
        case .streamStarted, .resumed, .checkpoint, .sourcePriority: break
        }
    }

    private mutating func append(_ record: consuming RawRecord, lane: Lane, role: RecordRole) {
        carriedRows += record.series.count
        records.append(Entry(record: record, lane: lane, role: role))
    }

    var count: Int {
        records.count + tombstones.count + workouts.count + activitySummaries.count + documents.count
    }

    /// What the batch weighs against the batch size: its items and what they carry.
    var size: Int { count + carriedRows }

    static func rows(beside workout: Workout) -> Int {
        workout.route.count + workout.events.count + workout.statistics.count + workout.activities.count
    }

    var isEmpty: Bool { count == 0 }
}
