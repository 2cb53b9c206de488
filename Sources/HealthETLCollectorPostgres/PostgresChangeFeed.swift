import HealthETLCollectorStorage
import HealthETLCore
import HealthETLWire
import PostgresNIO

/// The change feed on PostgreSQL (see `SQLiteChangeFeed`). The head row is updated first: its lock
/// orders the user's concurrent commits, so sequence numbers become visible in order, without gaps.
enum PostgresChangeFeed {
    static func append(
        dirty: Set<DirtyDay>, metricName: (Int64) -> String?, user: Int64, now: Instant,
        connection: PostgresConnection, logger: Logger
    ) async throws -> FeedChange? {
        guard !dirty.isEmpty else { return nil }
        let keys = FeedKeys.keys(of: dirty, metricName: metricName)
        let seq = try await append(keys, user: user, now: now, connection: connection, logger: logger)
        let list = Array(VersionKey.keys(of: dirty))
        _ = try await connection.query(
            """
            INSERT INTO key_versions(user_id, metric_id, month, seq)
            SELECT \(user), m, d, \(seq) FROM unnest(\(list.map { Int32($0.metric) })::integer[], \(list.map { Int32($0.month) })::integer[]) AS k(m, d)
            ORDER BY m, d
            ON CONFLICT (user_id, metric_id, month) DO UPDATE SET seq = excluded.seq
            """, logger: logger)
        return FeedChange(seq: seq, keys: keys)
    }

    static func appendEverything(user: Int64, now: Instant, connection: PostgresConnection, logger: Logger)
        async throws
    {
        let seq = try await append([.everything], user: user, now: now, connection: connection, logger: logger)
        _ = try await connection.query(
            "UPDATE feed_heads SET reset_seq = \(seq) WHERE user_id = \(user)", logger: logger)
    }

    private static func append(
        _ keys: [ChangeKey], user: Int64, now: Instant, connection: PostgresConnection, logger: Logger
    ) async throws -> Int64 {
        var seq: Int64?
        for try await next in try await connection.query(
            "UPDATE feed_heads SET seq = seq + 1 WHERE user_id = \(user) RETURNING seq", logger: logger
        ).decode(Int64.self) {
            seq = next
        }
        guard let seq else { throw CollectorError("the user has no feed") }
        _ = try await connection.query(
            """
            INSERT INTO changes(user_id, seq, keys, committed_ms)
            VALUES (\(user), \(seq), \(try FeedText.encode(keys)), \(now.millisecondsSinceEpoch))
            """, logger: logger)
        return seq
    }
}

extension PostgresCollectorStorage {
    public func changes(user name: String, since: Int64, limit: Int) async throws -> FeedRead {
        let user = try await identifiers.user(name)
        var head: (Int64, Int64)?
        for try await row in try await client.query(
            "SELECT seq, pruned_through FROM feed_heads WHERE user_id = \(user)", logger: logger
        ).decode((Int64, Int64).self) {
            head = row
        }
        guard let (seq, pruned) = head else { return .gone(head: 0) }
        guard since >= pruned, since <= seq else { return .gone(head: seq) }
        var changes: [FeedChange] = []
        for try await (number, keys) in try await client.query(
            "SELECT seq, keys FROM changes WHERE user_id = \(user) AND seq > \(since) ORDER BY seq LIMIT \(Int64(limit))",
            logger: logger
        ).decode((Int64, String).self) {
            changes.append(FeedChange(seq: number, keys: try FeedText.decode(keys)))
        }
        let next = changes.last?.seq ?? since
        // Read after the head: a change committed in between is in the list and counts.
        let newest = max(seq, next)
        return .page(FeedPage(changes: changes, next: next, head: newest, more: next < newest))
    }

    public func feedHead(user name: String) async throws -> Int64 {
        let user = try await identifiers.user(name)
        for try await seq in try await client.query(
            "SELECT seq FROM feed_heads WHERE user_id = \(user)", logger: logger
        )
        .decode(Int64.self) {
            return seq
        }
        return 0
    }

    public func projectionVersion(user name: String, metrics: [String], days: ClosedRange<Int64>) async throws
        -> Int64
    {
        let user = try await identifiers.user(name)
        var ids: [Int32] = []
        for metric in metrics {
            if let id = try await identifiers.existingMetric(metric, client: client, logger: logger) { ids.append(id) }
        }
        let months = VersionKey.months(of: days)
        let first = Int32(clamping: months.lowerBound)
        let last = Int32(clamping: months.upperBound)
        for try await version in try await client.query(
            """
            SELECT greatest(
                (SELECT reset_seq FROM feed_heads WHERE user_id = \(user)),
                (SELECT max(seq) FROM key_versions
                 WHERE user_id = \(user) AND metric_id = ANY(\(ids)::integer[]) AND month BETWEEN \(first) AND \(last)))
            """, logger: logger
        ).decode(Int64?.self) {
            return version ?? 0
        }
        return 0
    }

    public func pruneChanges(before cutoff: Instant) async throws -> Int {
        let cutoff = cutoff.millisecondsSinceEpoch
        let logger = logger
        return try await transaction { connection in
            _ = try await connection.query(
                """
                UPDATE feed_heads h SET pruned_through = greatest(h.pruned_through, c.newest)
                FROM (SELECT user_id, max(seq) AS newest FROM changes WHERE committed_ms < \(cutoff) GROUP BY user_id) c
                WHERE h.user_id = c.user_id
                """, logger: logger)
            var count = 0
            for try await _ in try await connection.query(
                "DELETE FROM changes WHERE committed_ms < \(cutoff) RETURNING 1", logger: logger
            ) {
                count += 1
            }
            return count
        }
    }
}

extension PostgresCollectorStorage {
    public func extent(user name: String) async throws -> [WireMetricExtent] {
        let user = try await identifiers.user(name)
        var rows: [(String, Int64, Int64, Int64)] = []
        for try await row in try await client.query(
            """
            SELECT m.name, b.first, b.last, coalesce(s.longest_ms, 0) FROM metrics m
            CROSS JOIN LATERAL (
                SELECT (SELECT min(start_ms) FROM samples WHERE user_id = \(user) AND metric_id = m.id) AS first,
                    (SELECT max(start_ms) FROM samples WHERE user_id = \(user) AND metric_id = m.id) AS last) b
            LEFT JOIN spans s ON s.user_id = \(user) AND s.metric_id = m.id
            WHERE b.first IS NOT NULL ORDER BY m.name
            """, logger: logger
        ).decode((String, Int64, Int64, Int64).self) {
            rows.append(row)
        }
        return rows.map { MetricExtent.make(metric: $0.0, firstStart: $0.1, lastStart: $0.2, longest: $0.3) }
    }
}
