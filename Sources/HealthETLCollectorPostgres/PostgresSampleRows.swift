import HealthETLCollectorStorage
import HealthETLCore
import NIOCore
import PostgresNIO

/// A batch's samples as column arrays, for one `INSERT … SELECT FROM unnest(…)`: a statement per
/// batch, not per sample. PostgreSQL arrays here hold no NULLs, so each nullable column travels
/// with a mask of which entries are absent.
struct PostgresSampleRows {
    var metric: [Int32] = []
    var start: [Int64] = []
    var id: [ByteBuffer] = []
    var end: [Int64] = []
    var source: [String] = []
    var sourceVersion: [String] = []
    var device: [String] = []
    var utcOffset: [Int32] = []
    var timeZone: [String] = []
    var value: [Double] = []
    var category: [String] = []
    var userEntered: [Bool] = []
    var flags: [Int32] = []
    var restores: [Int64] = []
    /// Per row, which nullable columns are absent: bit 0 source version, 1 device, 2 UTC offset,
    /// 3 time zone, 4 value, 5 category, 6 restores.
    var absent: [Int32] = []

    var count: Int { metric.count }

    mutating func append(_ sample: Sample, metric metricID: Int32) {
        var mask: Int32 = 0
        func text(_ value: String?, bit: Int32) -> String {
            if value == nil { mask |= 1 << bit }
            return value ?? ""
        }
        metric.append(metricID)
        start.append(sample.start.millisecondsSinceEpoch)
        id.append(ByteBuffer(bytes: sample.id.bytes))
        end.append(sample.end.millisecondsSinceEpoch)
        source.append(sample.sourceName)
        sourceVersion.append(text(sample.sourceVersion, bit: 0))
        device.append(text(sample.device, bit: 1))
        if sample.utcOffsetSeconds == nil { mask |= 1 << 2 }
        utcOffset.append(sample.utcOffsetSeconds ?? 0)
        timeZone.append(text(sample.timeZone, bit: 3))
        if sample.value == nil { mask |= 1 << 4 }
        value.append(sample.value ?? 0)
        category.append(text(sample.category, bit: 5))
        userEntered.append(sample.isUserEntered)
        flags.append(Int32(sample.flags.rawValue))
        if sample.restoresDeletionAt == nil { mask |= 1 << 6 }
        restores.append(sample.restoresDeletionAt?.millisecondsSinceEpoch ?? 0)
        absent.append(mask)
    }

    /// Upserts every row for `user`, as `BatchWriter` does one by one: the latest values win, and
    /// a restoration time only ever grows. Rows go in key order, as in every statement here that
    /// locks rows, so two collectors writing overlapping batches wait for each other rather than
    /// deadlock.
    func upsert(user: Int64, now: Instant, on connection: PostgresConnection, logger: Logger) async throws {
        guard count > 0 else { return }
        let updated = now.millisecondsSinceEpoch
        _ = try await connection.query(
            """
            INSERT INTO samples(user_id, metric_id, start_ms, id, end_ms, source, source_version, device,
                utc_offset_s, time_zone, value, category, user_entered, flags, updated_ms, restores_ms)
            SELECT \(user), r.metric, r.start, r.id, r.end_ms, r.source,
                CASE WHEN r.absent & 1 = 0 THEN r.source_version END, CASE WHEN r.absent & 2 = 0 THEN r.device END,
                CASE WHEN r.absent & 4 = 0 THEN r.utc_offset END, CASE WHEN r.absent & 8 = 0 THEN r.time_zone END,
                CASE WHEN r.absent & 16 = 0 THEN r.value END, CASE WHEN r.absent & 32 = 0 THEN r.category END,
                r.user_entered, r.flags, \(updated), CASE WHEN r.absent & 64 = 0 THEN r.restores END
            FROM unnest(\(metric)::integer[], \(start)::bigint[], \(id)::bytea[], \(end)::bigint[], \(source)::text[],
                \(sourceVersion)::text[], \(device)::text[], \(utcOffset)::integer[], \(timeZone)::text[],
                \(value)::double precision[], \(category)::text[], \(userEntered)::boolean[], \(flags)::integer[],
                \(restores)::bigint[], \(absent)::integer[])
                AS r(metric, start, id, end_ms, source, source_version, device, utc_offset, time_zone, value, category,
                     user_entered, flags, restores, absent)
            ORDER BY r.metric, r.start, r.id
            ON CONFLICT (user_id, metric_id, start_ms, id) DO UPDATE SET
            \(unescaped: DeletionOrder.upsertAssignments)
            """, logger: logger)
    }
}
