import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite
import HealthETLWire

/// Writes one validated batch inside the caller's transaction: upserts, tombstones and the
/// projection days they touch. A deletion and a sample's return at the source are applied in
/// the order they happened there, whichever arrives first: batches overtake one another.
struct BatchWriter {
    let user: Int64
    let now: Instant
    var state: StorageState
    let connection: SQLiteConnection
    let projector: Projector
    private let upsert: SQLiteStatement
    private let deletionTime: SQLiteStatement
    private let forgetDeletion: SQLiteStatement
    private let restoration: SQLiteStatement
    private let deleteSample: SQLiteStatement
    private let recordDeletion: SQLiteStatement
    /// The ids of the batch's sources, versions, devices and zones.
    private var texts: SampleTexts
    /// Whether the user has any deletion on record: without one no sample needs looking up.
    private let userHasDeletions: Bool
    /// The projection days the batch changed.
    private(set) var dirty = Set<DirtyDay>()
    /// The metrics the batch wrote lately (up to `recentLimit`), found by their names' bytes: a
    /// batch interleaves a few metrics, and looking one up here costs less than hashing its name,
    /// its span key and its days again for every sample.
    private var recent: [RecentMetric] = []
    private var nextReplaced = 0
    private static let recentLimit = 8

    private struct RecentMetric {
        let name: String
        let id: Int64
        /// Its longest sample as noted: only a longer one is noted again.
        var longest: Int64
        /// The days its last sample marked: runs of samples over the same days mark them once.
        var marked: ClosedRange<Int64>?
    }

    init(user: Int64, now: Instant, state: StorageState, connection: SQLiteConnection, projector: Projector) throws {
        self.user = user
        self.now = now
        self.state = state
        self.connection = connection
        self.projector = projector
        texts = try SampleTexts(connection: connection)
        upsert = try connection.prepare(
            """
            INSERT INTO samples(user_id, metric_id, start_ms, id, end_ms, source_id, version_id, device_id,
                utc_offset_s, zone_id, value, category, user_entered, flags, updated_ms, restores_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
            ON CONFLICT(user_id, metric_id, start_ms, id) DO UPDATE SET
            \(Self.upsertAssignments)
            """)
        // A deletion of unknown time (before migration 0003) is taken as the earliest.
        deletionTime = try connection.prepare(
            """
            SELECT coalesce(source_deleted_ms, -9223372036854775808) FROM deletions
            WHERE user_id = ?1 AND metric_id = ?2 AND start_ms = ?3 AND id = ?4
            """)
        forgetDeletion = try connection.prepare(
            "DELETE FROM deletions WHERE user_id = ?1 AND metric_id = ?2 AND start_ms = ?3 AND id = ?4")
        restoration = try connection.prepare(
            """
            SELECT restores_ms FROM samples
            WHERE user_id = ?1 AND metric_id = ?2 AND start_ms = ?3 AND id = ?4 AND restores_ms IS NOT NULL
            """)
        deleteSample = try connection.prepare(
            "DELETE FROM samples WHERE user_id = ?1 AND metric_id = ?2 AND start_ms = ?3 AND id = ?4")
        recordDeletion = try connection.prepare(
            """
            INSERT INTO deletions(user_id, metric_id, start_ms, id, deleted_ms, source_deleted_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT DO UPDATE SET source_deleted_ms =
                max(coalesce(deletions.source_deleted_ms, excluded.source_deleted_ms), excluded.source_deleted_ms)
            """)
        let anyDeletion = try connection.prepare("SELECT EXISTS(SELECT 1 FROM deletions WHERE user_id = ?1)")
        try anyDeletion.bind(.integer(user))
        userHasDeletions = try anyDeletion.firstRow { $0.int64(0) } == 1
    }

    mutating func write(_ batch: ValidatedBatch) throws -> WireBatchResponse {
        var rejections = batch.rejections
        var accepted = 0
        // By index: each sample is lent to `upsert`, not copied out of the array (a copy retains
        // every string it holds).
        for position in batch.samples.indices {
            if let rejection = try upsert(batch.samples[position], at: position, in: batch) {
                rejections.append(rejection)
            } else {
                accepted += 1
            }
        }
        for tombstone in batch.deletions {
            let index = try recentIndex(of: tombstone.metric)
            let metric = recent[index].id
            if DeletionOrder.isOvertaken(tombstone, restores: try restorationTime(of: tombstone, metric: metric)) {
                continue
            }
            try deleteSample.bind(
                .integer(user), .integer(metric), .integer(tombstone.start.millisecondsSinceEpoch),
                .blob(tombstone.sampleID.bytes))
            _ = try deleteSample.execute()
            try recordDeletion.bind(
                .integer(user), .integer(metric), .integer(tombstone.start.millisecondsSinceEpoch),
                .blob(tombstone.sampleID.bytes),
                .integer(now.millisecondsSinceEpoch), .integer(tombstone.deletedAt.millisecondsSinceEpoch))
            _ = try recordDeletion.execute()
            let longest = state.longestSample(user: user, metric: metric)
            markDirty(
                index, from: tombstone.start,
                to: Instant(millisecondsSinceEpoch: tombstone.start.millisecondsSinceEpoch + longest))
        }
        try DirtyDay.insert(dirty, user: user, connection: connection)
        rejections.sort { ($0.item, $0.index) < ($1.item, $1.index) }
        return WireBatchResponse(
            batchID: batch.id, accepted: accepted, deleted: batch.deletions.count, rejected: rejections)
    }

    /// Stores `sample` unless it stays deleted; returns its rejection then.
    private mutating func upsert(_ sample: Sample, at position: Int, in batch: ValidatedBatch) throws
        -> WireRejection?
    {
        let index = try recentIndex(of: sample.metric)
        let metric = recent[index].id
        if let deletedAt = try deletionTime(of: sample, metric: metric) {
            guard !DeletionOrder.staysDeleted(sample, deletedAt: deletedAt) else {
                return DeletionOrder.rejection(of: sample, at: position, in: batch)
            }
            try forgetDeletion.run(
                .integer(user), .integer(metric), .integer(sample.start.millisecondsSinceEpoch),
                .blob(sample.id.bytes))
        }
        try store(sample, metric: metric)
        let span = sample.end.millisecondsSinceEpoch - sample.start.millisecondsSinceEpoch
        if span > recent[index].longest {
            try state.noteSpan(span, user: user, metric: metric, connection: connection)
            recent[index].longest = state.longestSample(user: user, metric: metric)
        }
        markDirty(index, from: sample.start, to: sample.end)
        return nil
    }

    /// Where `name` is in `recent`, put there (replacing the oldest when full) if it is not.
    private mutating func recentIndex(of name: String) throws -> Int {
        // Equal bytes are an equal name; other spellings of one name meet in `state`'s table.
        if let index = recent.firstIndex(where: { ExactText.sameBytes($0.name, name) }) { return index }
        let id = try state.metricID(name, connection: connection)
        let metric = RecentMetric(name: name, id: id, longest: state.longestSample(user: user, metric: id))
        guard recent.count == Self.recentLimit else {
            recent.append(metric)
            return recent.count - 1
        }
        let index = nextReplaced
        nextReplaced = (nextReplaced + 1) % Self.recentLimit
        recent[index] = metric
        return index
    }

    /// When the source deleted the sample (`Int64.min` when the client did not say); nil when
    /// it was never deleted.
    private func deletionTime(of sample: Sample, metric: Int64) throws -> Int64? {
        // The batch's own deletions are applied after its samples.
        guard userHasDeletions else { return nil }
        try deletionTime.bind(
            .integer(user), .integer(metric), .integer(sample.start.millisecondsSinceEpoch), .blob(sample.id.bytes))
        return try deletionTime.firstRow { $0.int64(0) }
    }

    /// When the deletion happened that the stored sample came back after; nil when it is not stored
    /// or never came back.
    private func restorationTime(of tombstone: Tombstone, metric: Int64) throws -> Int64? {
        try restoration.bind(
            .integer(user), .integer(metric), .integer(tombstone.start.millisecondsSinceEpoch),
            .blob(tombstone.sampleID.bytes))
        return try restoration.firstRow { $0.int64(0) }
    }

    private mutating func store(_ sample: Sample, metric: Int64) throws {
        upsert.reset()
        try upsert.bind(1, user)
        try upsert.bind(2, metric)
        try upsert.bind(3, sample.start.millisecondsSinceEpoch)
        try upsert.bind(4, sample.id)
        try upsert.bind(5, sample.end.millisecondsSinceEpoch)
        try bindText(6, sample.sourceName, .source)
        try bindText(7, sample.sourceVersion, .version)
        try bindText(8, sample.device, .device)
        if let offset = sample.utcOffsetSeconds { try upsert.bind(9, Int64(offset)) }
        try bindText(10, sample.timeZone, .zone)
        try upsert.bind(11, sample.value)
        try upsert.bind(12, sample.category)
        try upsert.bind(13, sample.isUserEntered ? 1 : 0)
        try upsert.bind(14, Int64(sample.flags.rawValue))
        try upsert.bind(15, now.millisecondsSinceEpoch)
        if let restores = sample.restoresDeletionAt { try upsert.bind(16, restores.millisecondsSinceEpoch) }
        _ = try upsert.execute()
    }

    private mutating func bindText(_ index: Int32, _ text: String?, _ column: SampleTexts.Column) throws {
        if let id = try texts.id(of: text, in: column) { try upsert.bind(index, id) }
    }

    /// The upsert's assignments on this storage, whose samples hold their texts as ids.
    private static let upsertAssignments = DeletionOrder.upsertAssignments(replacing: [
        "end_ms", "source_id", "version_id", "device_id", "utc_offset_s", "zone_id", "value", "category",
        "user_entered", "flags", "updated_ms",
    ])

    /// Marks, for the metric at `index` in `recent`, every local day in any zone on Earth that an
    /// interval may touch; sleep nights are keyed by the morning they end, one day later at most.
    private mutating func markDirty(_ index: Int, from start: Instant, to end: Instant) {
        let days = DirtyDay.days(touching: start, end)
        guard recent[index].marked != days else { return }
        recent[index].marked = days
        for day in days { dirty.insert(DirtyDay(metric: recent[index].id, day: day)) }
    }
}
