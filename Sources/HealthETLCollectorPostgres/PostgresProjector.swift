import HealthETLCollectorStorage
import HealthETLCore
import NIOCore
import PostgresNIO

/// Recomputes projection keys on PostgreSQL with the same calculators (`ProjectionPlan.project`) as
/// the SQLite storage, inside the caller's transaction, which has already taken the keys out of
/// `dirty_days`: a key dirtied again by a batch that commits meanwhile waits on that row and is
/// dirty again afterwards, so nothing computed from an older view of the samples stays.
struct PostgresProjector {
    let catalog: MetricCatalog

    /// The advisory lock on a user's sleep nights, within a key space of its own ("hetn"; the
    /// deletion lock's is "hetd"). A transaction takes the locks of its users in their order.
    static func nightsLockKey(user: Int64) -> Int64 { 0x6865_746E_0000_0000 ^ user }

    func recompute(
        user: Int64, metric: Int32, days: [Int64], connection: PostgresConnection, logger: Logger, now: Instant
    ) async throws {
        guard !days.isEmpty, let name = try await name(of: metric, connection: connection, logger: logger),
            let definition = catalog.metric(named: name)?.definition
        else { return }
        let priority = SourcePriority(
            preferred: try await preferred(user: user, connection: connection, logger: logger))
        let longest = try await longest(user: user, metric: metric, connection: connection, logger: logger)
        for run in ProjectionPlan.runs(of: days.sorted()) {
            let samples = try await load(
                user: user, metric: metric, name: name, window: ProjectionPlan.loadWindow(days: run, longest: longest),
                connection: connection, logger: logger)
            let result = ProjectionPlan.project(samples, definition: definition, priority: priority, days: run)
            try await replaceRollups(
                result.rollups, user: user, metric: metric, days: run, connection: connection, logger: logger, now: now)
            if let nights = result.nights {
                try await replaceNights(
                    nights, user: user, nights: ProjectionPlan.nights(of: run), connection: connection, logger: logger,
                    now: now)
            }
        }
    }

    private func name(of metric: Int32, connection: PostgresConnection, logger: Logger) async throws -> String? {
        for try await name in try await connection.query(
            "SELECT name FROM metrics WHERE id = \(metric)", logger: logger
        )
        .decode(String.self) {
            return name
        }
        return nil
    }

    private func preferred(user: Int64, connection: PostgresConnection, logger: Logger) async throws -> [String] {
        // FOR SHARE: a new order being stored waits for this computation to commit, and then marks
        // what it computed dirty again (every user has a row from the start, so there is one to lock).
        for try await text in try await connection.query(
            "SELECT sources FROM source_priorities WHERE user_id = \(user) FOR SHARE", logger: logger
        ).decode(String.self) {
            return ProjectionPlan.decodeSources(text)
        }
        return []
    }

    private func longest(user: Int64, metric: Int32, connection: PostgresConnection, logger: Logger) async throws
        -> Int64
    {
        for try await longest in try await connection.query(
            "SELECT longest_ms FROM spans WHERE user_id = \(user) AND metric_id = \(metric)", logger: logger
        ).decode(Int64.self) {
            return longest
        }
        return 0
    }

    private func load(
        user: Int64, metric: Int32, name: String, window: Range<Int64>, connection: PostgresConnection, logger: Logger
    ) async throws -> [Sample] {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: ProjectionPlan.sampleColumns)
            FROM samples WHERE user_id = \(user) AND metric_id = \(metric)
                AND start_ms >= \(window.lowerBound) AND start_ms < \(window.upperBound)
            """, logger: logger)
        var samples: [Sample] = []
        for try await row in rows { samples.append(try Self.sample(row, metric: name)) }
        return samples
    }

    /// A row of `ProjectionPlan.sampleColumns` as a sample.
    static func sample(_ row: PostgresRow, metric: String) throws -> Sample {
        let (id, start, end, source, version, device, offset, zone, value, category, entered, flags) =
            try row.decode(
                (ByteBuffer, Int64, Int64, String, String?, String?, Int32?, String?, Double?, String?, Bool, Int32)
                    .self)
        return ProjectionPlan.sample(
            id: ContentID(digest: Array(id.readableBytesView)), metric: metric, source: source,
            sourceVersion: version, device: device, start: start, end: end, utcOffset: offset, timeZone: zone,
            value: value, category: category, userEntered: entered, flags: Int(flags))
    }

    private func replaceRollups(
        _ rollups: [DailyRollup], user: Int64, metric: Int32, days: ClosedRange<Int64>, connection: PostgresConnection,
        logger: Logger, now: Instant
    ) async throws {
        _ = try await connection.query(
            """
            DELETE FROM daily_rollups WHERE user_id = \(user) AND metric_id = \(metric)
                AND day BETWEEN \(Int32(days.lowerBound)) AND \(Int32(days.upperBound))
            """, logger: logger)
        let kept = rollups.filter { days.contains($0.day.daysSinceEpoch) }
        guard !kept.isEmpty else { return }
        // One statement for the run; the nullable statistics travel with a mask of which are absent.
        let absent = kept.map { rollup -> Int32 in
            [rollup.sum, rollup.average, rollup.minimum, rollup.maximum, rollup.latest].enumerated().reduce(0) {
                $0 | ($1.element == nil ? 1 << Int32($1.offset) : 0)
            }
        }
        _ = try await connection.query(
            """
            INSERT INTO daily_rollups(user_id, metric_id, day, sum, avg, min, max, count, latest, sources,
                coverage_s, computed_ms)
            SELECT \(user), \(metric), r.day, CASE WHEN r.absent & 1 = 0 THEN r.sum END,
                CASE WHEN r.absent & 2 = 0 THEN r.avg END, CASE WHEN r.absent & 4 = 0 THEN r.min END,
                CASE WHEN r.absent & 8 = 0 THEN r.max END, r.count, CASE WHEN r.absent & 16 = 0 THEN r.latest END,
                r.sources, r.coverage, \(now.millisecondsSinceEpoch)
            FROM unnest(\(kept.map { Int32($0.day.daysSinceEpoch) })::integer[], \(kept.map { $0.sum ?? 0 })::float8[],
                \(kept.map { $0.average ?? 0 })::float8[], \(kept.map { $0.minimum ?? 0 })::float8[],
                \(kept.map { $0.maximum ?? 0 })::float8[], \(kept.map { Int32($0.count) })::integer[],
                \(kept.map { $0.latest ?? 0 })::float8[], \(kept.map { JSONText.array($0.sources) })::text[],
                \(kept.map(\.coverageSeconds))::float8[], \(absent)::integer[])
                AS r(day, sum, avg, min, max, count, latest, sources, coverage, absent)
            """, logger: logger)
    }

    private func replaceNights(
        _ nights: [SleepNight], user: Int64, nights range: ClosedRange<Int64>, connection: PostgresConnection,
        logger: Logger, now: Instant
    ) async throws {
        // Two transactions recomputing days N and N + 1 both rewrite night N + 1: the second
        // waits for the first to commit, then deletes what it wrote instead of colliding with it.
        _ = try await connection.query(
            "SELECT pg_advisory_xact_lock(\(Self.nightsLockKey(user: user)))", logger: logger
        ).collect()
        _ = try await connection.query(
            """
            DELETE FROM sleep_nights WHERE user_id = \(user)
                AND night BETWEEN \(Int32(range.lowerBound)) AND \(Int32(range.upperBound))
            """, logger: logger)
        let kept = nights.filter { range.contains($0.night.daysSinceEpoch) }
        guard !kept.isEmpty else { return }
        _ = try await connection.query(
            """
            INSERT INTO sleep_nights(user_id, night, source, in_bed_s, asleep_s, core_s, deep_s, rem_s, awake_s,
                start_ms, end_ms, computed_ms)
            SELECT \(user), n.night, n.source, n.in_bed, n.asleep, n.core, n.deep, n.rem, n.awake, n.start_ms, n.end_ms,
                \(now.millisecondsSinceEpoch)
            FROM unnest(\(kept.map { Int32($0.night.daysSinceEpoch) })::integer[], \(kept.map(\.source))::text[],
                \(kept.map(\.inBedSeconds))::float8[], \(kept.map(\.asleepSeconds))::float8[],
                \(kept.map(\.coreSeconds))::float8[], \(kept.map(\.deepSeconds))::float8[],
                \(kept.map(\.remSeconds))::float8[], \(kept.map(\.awakeSeconds))::float8[],
                \(kept.map(\.start.millisecondsSinceEpoch))::bigint[], \(kept.map(\.end.millisecondsSinceEpoch))::bigint[])
                AS n(night, source, in_bed, asleep, core, deep, rem, awake, start_ms, end_ms)
            """, logger: logger)
    }
}
