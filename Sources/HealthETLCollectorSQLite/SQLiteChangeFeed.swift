import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite

/// The change feed in the collector's SQLite database, inside the caller's transaction: each
/// committed write takes the user's next sequence number, lists the keys it changed and stamps
/// the months of the days it changed with that number (what a projection's ETag is made from).
enum SQLiteChangeFeed {
    /// Appends a change of `dirty` days (nothing when there are none).
    @discardableResult
    static func append(
        dirty: Set<DirtyDay>, user: Int64, state: StorageState, now: Instant, connection: SQLiteConnection
    ) throws -> FeedChange? {
        guard !dirty.isEmpty else { return nil }
        let keys = FeedKeys.keys(of: dirty) { state.metricNames[$0] }
        let seq = try append(keys, user: user, now: now, connection: connection)
        let stamp = try connection.prepare(
            """
            INSERT INTO key_versions(user_id, metric_id, month, seq) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(user_id, metric_id, month) DO UPDATE SET seq = excluded.seq
            """)
        for key in VersionKey.keys(of: dirty) {
            try stamp.bind(.integer(user), .integer(key.metric), .integer(key.month), .integer(seq))
            _ = try stamp.execute()
        }
        return FeedChange(seq: seq, keys: keys)
    }

    /// Appends a change of everything: a new source order changes every projection.
    static func appendEverything(user: Int64, now: Instant, connection: SQLiteConnection) throws {
        let seq = try append([.everything], user: user, now: now, connection: connection)
        try connection.prepare("UPDATE feed_heads SET reset_seq = ?2 WHERE user_id = ?1").run(
            .integer(user), .integer(seq))
    }

    private static func append(_ keys: [ChangeKey], user: Int64, now: Instant, connection: SQLiteConnection) throws
        -> Int64
    {
        let next = try connection.prepare("UPDATE feed_heads SET seq = seq + 1 WHERE user_id = ?1 RETURNING seq")
        try next.bind(.integer(user))
        guard let seq = try next.firstRow({ $0.int64(0) }) else { throw CollectorError("the user has no feed") }
        try connection.prepare("INSERT INTO changes(user_id, seq, keys, committed_ms) VALUES (?1, ?2, ?3, ?4)").run(
            .integer(user), .integer(seq), .text(try FeedText.encode(keys)), .integer(now.millisecondsSinceEpoch))
        return seq
    }

    static func register(user: Int64, connection: SQLiteConnection) throws {
        try connection.prepare("INSERT INTO feed_heads(user_id, seq) VALUES (?1, 0) ON CONFLICT DO NOTHING").run(
            .integer(user))
    }

    static func read(user: Int64, since: Int64, limit: Int, connection: SQLiteConnection) throws -> FeedRead {
        let head = try connection.prepare("SELECT seq, pruned_through FROM feed_heads WHERE user_id = ?1")
        try head.bind(.integer(user))
        guard let (seq, pruned) = try head.firstRow({ ($0.int64(0), $0.int64(1)) }) else { return .gone(head: 0) }
        guard since >= pruned, since <= seq else { return .gone(head: seq) }
        let statement = try connection.prepare(
            "SELECT seq, keys FROM changes WHERE user_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3")
        try statement.bind(.integer(user), .integer(since), .integer(Int64(limit)))
        var changes: [FeedChange] = []
        while try statement.step() {
            changes.append(FeedChange(seq: statement.int64(0), keys: try FeedText.decode(statement.text(1) ?? "[]")))
        }
        let next = changes.last?.seq ?? since
        return .page(FeedPage(changes: changes, next: next, head: seq, more: next < seq))
    }

    static func head(user: Int64, connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.prepare("SELECT seq FROM feed_heads WHERE user_id = ?1")
        try statement.bind(.integer(user))
        return try statement.firstRow { $0.int64(0) } ?? 0
    }

    /// The newest sequence that changed any of `metrics` on `days`, or reset everything.
    static func version(user: Int64, metrics: [Int64], days: ClosedRange<Int64>, connection: SQLiteConnection)
        throws -> Int64
    {
        let reset = try connection.prepare("SELECT reset_seq FROM feed_heads WHERE user_id = ?1")
        try reset.bind(.integer(user))
        var newest = try reset.firstRow { $0.int64(0) } ?? 0
        let statement = try connection.prepare(
            "SELECT max(seq) FROM key_versions WHERE user_id = ?1 AND metric_id = ?2 AND month BETWEEN ?3 AND ?4")
        let months = VersionKey.months(of: days)
        for metric in metrics {
            try statement.bind(
                .integer(user), .integer(metric), .integer(months.lowerBound), .integer(months.upperBound))
            newest = max(newest, try statement.firstRow { $0.int64(0) } ?? 0)
        }
        return newest
    }

    /// Forgets changes committed before `cutoff`; a client behind them is told to resync.
    static func prune(before cutoff: Instant, connection: SQLiteConnection) throws -> Int {
        try connection.prepare(
            """
            UPDATE feed_heads SET pruned_through = max(pruned_through, coalesce(
                (SELECT max(seq) FROM changes AS c WHERE c.user_id = feed_heads.user_id AND c.committed_ms < ?1), 0))
            """
        ).run(.integer(cutoff.millisecondsSinceEpoch))
        return try connection.prepare("DELETE FROM changes WHERE committed_ms < ?1").run(
            .integer(cutoff.millisecondsSinceEpoch))
    }
}
