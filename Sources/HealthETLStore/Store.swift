import CSQLite
import HealthETLCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The local SQLite store. One connection, confined to the thread or actor that owns the store.
///
/// The only way to write samples is `commit(_:)`: a batch and its cursor advances in one
/// transaction, so a crash at any instant leaves the whole batch or none of it.
public final class Store {
    public let directory: StoreDirectory
    let connection: SQLiteConnection
    let now: () -> Instant
    private var statements: [String: SQLiteStatement] = [:]
    private var interned: [InternTable: [String: Int64]] = [:]
    /// Names interned by the open transaction: forgotten if it rolls back.
    private var internedInTransaction: [(InternTable, String)] = []
    /// Test seam: called at each `CommitStage`; throwing there aborts the commit.
    package var faultInjection: (@Sendable (CommitStage) throws -> Void)?

    /// Opens (creating if needed) the store in `directory`, private to this user, fully migrated.
    /// - Parameter now: the clock for commit times; injected so tests are exact.
    public init(directory: StoreDirectory, now: @escaping () -> Instant = Store.systemNow) throws {
        self.directory = directory
        self.now = now
        try directory.prepare()
        do {
            connection = try SQLiteConnection(path: directory.databasePath)
            // A 64 MiB page cache keeps the identity index's hot pages in memory during imports.
            try connection.execute(
                """
                PRAGMA journal_mode = WAL;
                PRAGMA synchronous = NORMAL;
                PRAGMA foreign_keys = ON;
                PRAGMA temp_store = MEMORY;
                PRAGMA busy_timeout = 5000;
                PRAGMA cache_size = -65536;
                """)
        } catch let error as SQLiteError {
            throw StoreError.cannotOpen(path: directory.databasePath, reason: error.description)
        }
        try Migrator(migrations: StoreSchema.migrations)
            .migrate(connection, nowMilliseconds: now().millisecondsSinceEpoch)
        // WAL and shared-memory files now exist: they must have inherited the database's mode.
        try directory.prepare()
    }

    /// The wall clock, in milliseconds.
    public static func systemNow() -> Instant {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Instant(millisecondsSinceEpoch: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }

    /// Names of the migrations applied to this store, in order.
    public func appliedMigrations() throws -> [String] {
        try Migrator(migrations: StoreSchema.migrations).appliedNames(connection)
    }

    // MARK: - Committing

    /// Writes a batch and advances its cursors in one transaction.
    /// - Throws: `StoreError.cursorMovedBackwards` (nothing written), `SQLiteError` (nothing written).
    @discardableResult
    public func commit(_ batch: CommitBatch) throws -> CommitResult {
        guard !batch.cursors.isEmpty else { throw StoreError.batchWithoutCursor(stream: batch.stream) }
        let committedAt = now().millisecondsSinceEpoch
        do {
            return try connection.writeTransaction {
                let stream = try intern(.streams, batch.stream)
                var result = CommitResult()
                var dirty = Set<DirtyKey>()
                for laned in batch.samples {
                    if try insert(laned, stream: stream, committedAt: committedAt) {
                        result.inserted += 1
                        dirty.formUnion(DirtyKey.keys(for: laned.sample))
                    } else {
                        result.duplicates += 1
                    }
                }
                for record in batch.quarantined {
                    if try insert(record, stream: stream, committedAt: committedAt) {
                        result.quarantined += 1
                    } else {
                        result.quarantineDuplicates += 1
                    }
                }
                for tombstone in batch.tombstones {
                    result.tombstoned += try apply(tombstone, stream: stream, committedAt: committedAt, dirty: &dirty)
                }
                try mark(dirty, at: committedAt)
                try faultInjection?(.afterRows)
                for (lane, position) in batch.cursors.sorted(by: { $0.key < $1.key }) {
                    try advance(stream: stream, name: batch.stream, lane: lane, to: position, at: committedAt)
                }
                try faultInjection?(.beforeCommit)
                internedInTransaction.removeAll()
                return result
            }
        } catch {
            for (table, name) in internedInTransaction { interned[table]?[name] = nil }
            internedInTransaction.removeAll()
            throw error
        }
    }

    private func insert(_ laned: LanedSample, stream: Int64, committedAt: Int64) throws -> Bool {
        let sample = laned.sample
        let statement = try cached(
            """
            INSERT OR IGNORE INTO samples(id, metric_id, source_id, source_version, device_id,
                start_ms, end_ms, utc_offset_s, value, category, value_text, unit_text, flags, lane,
                stream_id, metadata, committed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
            """)
        statement.reset()
        try statement.bind(1, sample.id)
        try statement.bind(2, try intern(.metrics, sample.metric))
        try statement.bind(3, try intern(.sources, sample.sourceName))
        try statement.bind(4, sample.sourceVersion)
        if let device = sample.device { try statement.bind(5, try intern(.devices, device)) }
        try statement.bind(6, sample.start.millisecondsSinceEpoch)
        try statement.bind(7, sample.end.millisecondsSinceEpoch)
        if let offset = sample.utcOffsetSeconds { try statement.bind(8, Int64(offset)) }
        try statement.bind(9, sample.value)
        try statement.bind(10, sample.category)
        try statement.bind(11, sample.valueAsWritten)
        try statement.bind(12, sample.unitAsWritten)
        try statement.bind(13, Int64(sample.flags.rawValue))
        try statement.bind(14, Int64(laned.lane.code))
        try statement.bind(15, stream)
        if !sample.metadata.isEmpty { try statement.bind(16, JSONText.pairs(sample.metadata)) }
        try statement.bind(17, committedAt)
        let changed = try statement.execute()
        return changed == 1
    }

    private func insert(_ record: QuarantinedRecord, stream: Int64, committedAt: Int64) throws -> Bool {
        let statement = try cached(
            """
            INSERT OR IGNORE INTO quarantine(id, reason, detail, raw, stream_id, committed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
        return try statement.run(
            .blob(record.id.bytes), .text(record.reason.rawValue), .text(record.detail),
            .text(record.raw.rawJSON), .integer(stream), .integer(committedAt)) == 1
    }

    /// Removes the sample if present and records the tombstone. Returns 1 if the tombstone is new.
    private func apply(
        _ tombstone: Tombstone, stream: Int64, committedAt: Int64, dirty: inout Set<DirtyKey>
    ) throws -> Int {
        let metric = try intern(.metrics, tombstone.metric)
        let lookup = try cached(
            """
            SELECT rowid, end_ms, utc_offset_s FROM samples
            WHERE metric_id = ?1 AND start_ms = ?2 AND id = ?3
            """)
        try lookup.bind(
            .integer(metric), .integer(tombstone.start.millisecondsSinceEpoch), .blob(tombstone.sampleID.bytes))
        var end: Int64?
        if try lookup.step() {
            let rowid = lookup.int64(0)
            end = lookup.int64(1)
            let offset = lookup.isNull(2) ? nil : Int32(lookup.int64(2))
            dirty.formUnion(
                DirtyKey.keys(
                    metric: tombstone.metric, start: tombstone.start,
                    end: Instant(millisecondsSinceEpoch: end!), utcOffsetSeconds: offset))
            try cached("DELETE FROM samples WHERE rowid = ?1").run(.integer(rowid))
        }
        let inserted = try cached(
            """
            INSERT OR IGNORE INTO tombstones(sample_id, metric_id, start_ms, end_ms, reason,
                deleted_ms, stream_id, committed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """
        ).run(
            .blob(tombstone.sampleID.bytes), .integer(metric),
            .integer(tombstone.start.millisecondsSinceEpoch), .optional(end),
            .text(tombstone.reason), .integer(tombstone.deletedAt.millisecondsSinceEpoch),
            .integer(stream), .integer(committedAt))
        return inserted
    }

    private func mark(_ keys: Set<DirtyKey>, at committedAt: Int64) throws {
        let statement = try cached(
            """
            INSERT INTO dirty_keys(metric_id, day, marked_ms) VALUES (?1, ?2, ?3)
            ON CONFLICT(metric_id, day) DO UPDATE SET marked_ms = excluded.marked_ms
            """)
        for key in keys {
            try statement.run(.integer(try intern(.metrics, key.metric)), .text(key.day.description), .integer(committedAt))
        }
    }

    private func advance(stream: Int64, name: String, lane: Lane, to position: Int64, at committedAt: Int64) throws {
        let current = try cached("SELECT position FROM cursors WHERE stream_id = ?1 AND lane = ?2")
        try current.bind(.integer(stream), .integer(Int64(lane.code)))
        if try current.step(), current.int64(0) > position {
            throw StoreError.cursorMovedBackwards(stream: name, lane: lane, current: current.int64(0), requested: position)
        }
        try cached(
            """
            INSERT INTO cursors(stream_id, lane, position, updated_ms) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(stream_id, lane) DO UPDATE SET position = excluded.position,
                updated_ms = excluded.updated_ms
            """
        ).run(.integer(stream), .integer(Int64(lane.code)), .integer(position), .integer(committedAt))
    }

    // MARK: - Cursors

    /// Every cursor of every stream, by stream name then lane.
    public func cursors() throws -> [StreamCursor] {
        let statement = try cached(
            """
            SELECT s.name, c.lane, c.position FROM cursors c JOIN streams s ON s.id = c.stream_id
            ORDER BY s.name, c.lane
            """)
        try statement.bind([])
        var cursors: [StreamCursor] = []
        while try statement.step() {
            guard let lane = Lane(code: Int(statement.int64(1))) else { continue }
            cursors.append(StreamCursor(stream: statement.text(0) ?? "", lane: lane, position: statement.int64(2)))
        }
        return cursors
    }

    /// The committed position of one lane of one stream, or `nil` if it never committed.
    public func cursor(stream: String, lane: Lane) throws -> Int64? {
        try cursors().first { $0.stream == stream && $0.lane == lane }?.position
    }

    // MARK: - Plumbing

    func cached(_ sql: String) throws -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try connection.prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// The row id for a name in a lookup table, inserting it the first time.
    func intern(_ table: InternTable, _ name: String) throws -> Int64 {
        if let id = interned[table]?[name] { return id }
        let insert = try cached("INSERT OR IGNORE INTO \(table.rawValue)(\(table.column)) VALUES (?1)")
        try insert.run(.text(name))
        let select = try cached("SELECT id FROM \(table.rawValue) WHERE \(table.column) = ?1")
        try select.bind(.text(name))
        guard try select.step() else {
            throw SQLiteError(code: SQLITE_INTERNAL, message: "interned \(table.rawValue) row vanished", statement: nil)
        }
        let id = select.int64(0)
        interned[table, default: [:]][name] = id
        if connection.isInTransaction { internedInTransaction.append((table, name)) }
        return id
    }
}

/// The lookup tables that intern repeated strings.
enum InternTable: String {
    case metrics, sources, devices, streams

    var column: String { self == .devices ? "description" : "name" }
}
