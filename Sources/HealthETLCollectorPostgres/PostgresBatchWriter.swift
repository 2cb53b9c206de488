import HealthETLCollectorStorage
import HealthETLCore
import HealthETLWire
import NIOCore
import PostgresNIO

/// Writes one validated batch inside the caller's transaction, set-based: what `BatchWriter`
/// does sample by sample on SQLite (deletion order, upserts, tombstones, spans, dirty days) in a
/// handful of statements over arrays.
struct PostgresBatchWriter {
    let user: Int64
    let now: Instant
    let connection: PostgresConnection
    let logger: Logger
    /// Metric ids by name, every metric of the batch among them.
    let metrics: [String: Int32]

    /// A sample's key within the user's rows.
    private struct Key: Hashable {
        let metric: Int32
        let start: Int64
        let id: ContentID
    }

    /// - Returns: the response, and the change the batch made to the user's feed.
    func write(_ batch: ValidatedBatch) async throws -> (WireBatchResponse, FeedChange?) {
        var rejections = batch.rejections
        let deleted = try await deletionTimes(of: batch.samples)
        var rows = PostgresSampleRows()
        var forget: [Key] = []
        var longest: [Int32: Int64] = [:]
        var dirty = Set<DirtyDay>()
        var accepted = 0
        // The last occurrence of a key holds its values (the upsert of a later one wins).
        var last: [Key: Int] = [:]
        for (position, sample) in batch.samples.enumerated() {
            last[key(of: sample)] = position
        }
        for (position, sample) in batch.samples.enumerated() {
            let key = key(of: sample)
            if let deletedAt = deleted[key] {
                guard !DeletionOrder.staysDeleted(sample, deletedAt: deletedAt) else {
                    rejections.append(DeletionOrder.rejection(of: sample, at: position, in: batch))
                    continue
                }
                forget.append(key)
            }
            if last[key] == position { rows.append(sample, metric: key.metric) }
            longest[key.metric] = max(
                longest[key.metric] ?? 0, sample.end.millisecondsSinceEpoch - sample.start.millisecondsSinceEpoch)
            for day in DirtyDay.days(touching: sample.start, sample.end) {
                dirty.insert(DirtyDay(metric: Int64(key.metric), day: day))
            }
            accepted += 1
        }
        try await delete(from: "deletions", forget)
        try await rows.upsert(user: user, now: now, on: connection, logger: logger)
        let spans = try await noteSpans(longest)
        try await applyTombstones(batch.deletions, spans: spans, dirty: &dirty)
        try await markDirty(dirty)
        let names = Dictionary(metrics.map { (Int64($0.value), $0.key) }, uniquingKeysWith: { first, _ in first })
        let change = try await PostgresChangeFeed.append(
            dirty: dirty, metricName: { names[$0] }, user: user, now: now, connection: connection, logger: logger)
        rejections.sort { ($0.item, $0.index) < ($1.item, $1.index) }
        let response = WireBatchResponse(
            batchID: batch.id, accepted: accepted, deleted: batch.deletions.count, rejected: rejections)
        return (response, change)
    }

    private func key(of sample: Sample) -> Key {
        Key(metric: metrics[sample.metric] ?? 0, start: sample.start.millisecondsSinceEpoch, id: sample.id)
    }

    /// When the source deleted each stored-as-deleted sample of the batch (`Int64.min` when the
    /// client did not say).
    private func deletionTimes(of samples: [Sample]) async throws -> [Key: Int64] {
        guard !samples.isEmpty else { return [:] }
        let keys = samples.map(key(of:))
        let rows = try await connection.query(
            """
            SELECT b.metric, b.start, b.id, coalesce(d.source_deleted_ms, -9223372036854775808)
            FROM unnest(\(keys.map(\.metric))::integer[], \(keys.map(\.start))::bigint[],
                \(keys.map { ByteBuffer(bytes: $0.id.bytes) })::bytea[]) AS b(metric, start, id)
            JOIN deletions d ON d.user_id = \(user) AND d.metric_id = b.metric AND d.start_ms = b.start AND d.id = b.id
            """, logger: logger)
        var times: [Key: Int64] = [:]
        for try await (metric, start, id, time) in rows.decode((Int32, Int64, ByteBuffer, Int64).self) {
            times[Key(metric: metric, start: start, id: ContentID(digest: Array(id.readableBytesView)))] = time
        }
        return times
    }

    private func delete(from table: String, _ keys: [Key]) async throws {
        guard !keys.isEmpty else { return }
        let metrics = keys.map(\.metric)
        let starts = keys.map(\.start)
        let ids = keys.map { ByteBuffer(bytes: $0.id.bytes) }
        _ = try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    DELETE FROM \(table) WHERE (user_id, metric_id, start_ms, id) IN (
                        SELECT t.user_id, t.metric_id, t.start_ms, t.id FROM \(table) t
                        JOIN unnest($2::integer[], $3::bigint[], $4::bytea[]) AS k(metric, start, id)
                            ON t.user_id = $1 AND t.metric_id = k.metric AND t.start_ms = k.start AND t.id = k.id
                        ORDER BY t.metric_id, t.start_ms, t.id FOR UPDATE OF t)
                    """,
                binds: try Self.binds(user, metrics, starts, ids)), logger: logger)
    }

    /// Raises each metric's longest sample; returns the longest now stored per metric of the batch.
    private func noteSpans(_ longest: [Int32: Int64]) async throws -> [Int32: Int64] {
        let metrics = Array(longest.keys)
        guard !metrics.isEmpty else { return [:] }
        _ = try await connection.query(
            """
            INSERT INTO spans(user_id, metric_id, longest_ms)
            SELECT \(user), m, l FROM unnest(\(metrics)::integer[], \(metrics.map { longest[$0]! })::bigint[]) AS s(m, l)
            ORDER BY m
            ON CONFLICT (user_id, metric_id) DO UPDATE SET longest_ms = greatest(spans.longest_ms, excluded.longest_ms)
            """, logger: logger)
        return longest
    }

    /// Deletes what the tombstones name (unless the sample came back at the source after the
    /// deletion) and records each deletion with the latest time the source gave.
    private func applyTombstones(_ tombstones: [Tombstone], spans: [Int32: Int64], dirty: inout Set<DirtyDay>)
        async throws
    {
        guard !tombstones.isEmpty else { return }
        let keys = tombstones.map {
            Key(metric: metrics[$0.metric] ?? 0, start: $0.start.millisecondsSinceEpoch, id: $0.sampleID)
        }
        var restored: [Key: Int64] = [:]
        let rows = try await connection.query(
            """
            SELECT s.metric_id, s.start_ms, s.id, s.restores_ms
            FROM unnest(\(keys.map(\.metric))::integer[], \(keys.map(\.start))::bigint[],
                \(keys.map { ByteBuffer(bytes: $0.id.bytes) })::bytea[]) AS b(metric, start, id)
            JOIN samples s ON s.user_id = \(user) AND s.metric_id = b.metric AND s.start_ms = b.start AND s.id = b.id
            WHERE s.restores_ms IS NOT NULL
            """, logger: logger)
        for try await (metric, start, id, restores) in rows.decode((Int32, Int64, ByteBuffer, Int64).self) {
            restored[Key(metric: metric, start: start, id: ContentID(digest: Array(id.readableBytesView)))] = restores
        }
        var applied: [Key: Int64] = [:]
        for (key, tombstone) in zip(keys, tombstones) {
            let deletedAt = tombstone.deletedAt.millisecondsSinceEpoch
            if DeletionOrder.isOvertaken(tombstone, restores: restored[key]) { continue }
            applied[key] = max(applied[key] ?? .min, deletedAt)
        }
        let kept = Array(applied.keys)
        try await delete(from: "samples", kept)
        if !kept.isEmpty {
            _ = try await connection.query(
                """
                INSERT INTO deletions(user_id, metric_id, start_ms, id, deleted_ms, source_deleted_ms)
                SELECT \(user), k.metric, k.start, k.id, \(now.millisecondsSinceEpoch), k.deleted
                FROM unnest(\(kept.map(\.metric))::integer[], \(kept.map(\.start))::bigint[],
                    \(kept.map { ByteBuffer(bytes: $0.id.bytes) })::bytea[], \(kept.map { applied[$0]! })::bigint[])
                    AS k(metric, start, id, deleted)
                ORDER BY k.metric, k.start, k.id
                ON CONFLICT (user_id, metric_id, start_ms, id) DO UPDATE SET source_deleted_ms =
                    greatest(coalesce(deletions.source_deleted_ms, excluded.source_deleted_ms), excluded.source_deleted_ms)
                """, logger: logger)
        }
        let longest = try await storedSpans(Set(keys.map(\.metric)))
        // As on SQLite, a tombstone its sample's return overtook changes no day (nor the feed).
        for (key, tombstone) in zip(keys, tombstones) where applied[key] != nil {
            let end = Instant(millisecondsSinceEpoch: key.start + (longest[key.metric] ?? spans[key.metric] ?? 0))
            for day in DirtyDay.days(touching: tombstone.start, end) {
                dirty.insert(DirtyDay(metric: Int64(key.metric), day: day))
            }
        }
    }

    private func storedSpans(_ metrics: Set<Int32>) async throws -> [Int32: Int64] {
        let rows = try await connection.query(
            "SELECT metric_id, longest_ms FROM spans WHERE user_id = \(user) AND metric_id = ANY(\(Array(metrics))::integer[])",
            logger: logger)
        var spans: [Int32: Int64] = [:]
        for try await (metric, longest) in rows.decode((Int32, Int64).self) { spans[metric] = longest }
        return spans
    }

    /// Marks the keys dirty so that they are dirty once this batch commits. An existing key is
    /// updated, not left alone: that locks it, so a projection taking it (which deletes it)
    /// either waits for this batch, and then sees its samples, or has taken it before, and then
    /// this insert waits and makes the key anew. (`DO NOTHING` would lean on a key that a
    /// refresh may be consuming without these samples.)
    private func markDirty(_ keys: Set<DirtyDay>) async throws {
        guard !keys.isEmpty else { return }
        let list = Array(keys)
        _ = try await connection.query(
            """
            INSERT INTO dirty_days(user_id, metric_id, day)
            SELECT \(user), m, d FROM unnest(\(list.map { Int32($0.metric) })::integer[], \(list.map { Int32($0.day) })::integer[]) AS k(m, d)
            ORDER BY m, d
            ON CONFLICT (user_id, metric_id, day) DO UPDATE SET day = excluded.day
            """, logger: logger)
    }

    private static func binds(_ user: Int64, _ metrics: [Int32], _ starts: [Int64], _ ids: [ByteBuffer]) throws
        -> PostgresBindings
    {
        var bindings = PostgresBindings()
        bindings.append(user)
        bindings.append(metrics)
        bindings.append(starts)
        bindings.append(ids)
        return bindings
    }
}
