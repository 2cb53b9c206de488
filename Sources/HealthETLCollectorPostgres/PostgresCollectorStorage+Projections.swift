import HealthETLCollectorStorage
import HealthETLCore
import HealthETLWire
import PostgresNIO

extension PostgresCollectorStorage: CollectorStorage {
    public func dailyRollups(user name: String, metric: String, from: CivilDate, to: CivilDate) async throws
        -> [WireDailyRollup]
    {
        let user = try await identifiers.user(name)
        guard let metricID = try await identifiers.existingMetric(metric, client: client, logger: logger) else {
            return []
        }
        let days = from.daysSinceEpoch...to.daysSinceEpoch
        try await recompute(user: user, metric: metricID, days: days)
        let rows = try await client.query(
            """
            SELECT day, sum, avg, min, max, count, latest, sources, coverage_s, computed_ms FROM daily_rollups
            WHERE user_id = \(user) AND metric_id = \(metricID)
                AND day BETWEEN \(Int32(days.lowerBound)) AND \(Int32(days.upperBound))
            ORDER BY day
            """, logger: logger)
        var rollups: [WireDailyRollup] = []
        for try await row in rows {
            let (day, sum, average, minimum, maximum, count, latest, sources, coverage, computed) = try row.decode(
                (Int32, Double?, Double?, Double?, Double?, Int32, Double?, String, Double, Int64).self)
            rollups.append(
                WireDailyRollup(
                    metric: metric, day: CivilDate(daysSinceEpoch: Int64(day)).description, sum: sum, avg: average,
                    min: minimum, max: maximum, count: Int(count), latest: latest,
                    sources: ProjectionPlan.decodeSources(sources), coverageSeconds: coverage,
                    computedAt: Instant(millisecondsSinceEpoch: computed).description))
        }
        return rollups
    }

    public func sleepNights(user name: String, from: CivilDate, to: CivilDate) async throws -> [WireSleepNight] {
        let user = try await identifiers.user(name)
        guard
            let metricID = try await identifiers.existingMetric(
                ProjectionPlan.sleepMetric, client: client, logger: logger)
        else { return [] }
        // Night N is dirty when day N or N - 1 is.
        let nights = from.daysSinceEpoch...to.daysSinceEpoch
        try await recompute(user: user, metric: metricID, days: (nights.lowerBound - 1)...nights.upperBound)
        let rows = try await client.query(
            """
            SELECT night, source, in_bed_s, asleep_s, core_s, deep_s, rem_s, awake_s, start_ms, end_ms, computed_ms
            FROM sleep_nights WHERE user_id = \(user)
                AND night BETWEEN \(Int32(nights.lowerBound)) AND \(Int32(nights.upperBound))
            ORDER BY night
            """, logger: logger)
        var result: [WireSleepNight] = []
        for try await row in rows {
            let (night, source, inBed, asleep, core, deep, rem, awake, start, end, computed) = try row.decode(
                (Int32, String, Double, Double, Double, Double, Double, Double, Int64, Int64, Int64).self)
            result.append(
                WireSleepNight(
                    night: CivilDate(daysSinceEpoch: Int64(night)).description, source: source,
                    inBedSeconds: inBed, asleepSeconds: asleep, coreSeconds: core, deepSeconds: deep,
                    remSeconds: rem, awakeSeconds: awake,
                    start: Instant(millisecondsSinceEpoch: start).description,
                    end: Instant(millisecondsSinceEpoch: end).description,
                    computedAt: Instant(millisecondsSinceEpoch: computed).description))
        }
        return result
    }

    /// Takes up to `limit` dirty keys no other collector is computing (`SKIP LOCKED`) and
    /// recomputes them in the transaction that took them.
    public func refreshProjections(limit: Int) async throws -> Int {
        let now = now()
        let projector = PostgresProjector(catalog: catalog)
        let logger = logger
        try await transaction { connection in
            let rows = try await connection.query(
                """
                DELETE FROM dirty_days WHERE (user_id, metric_id, day) IN (
                    SELECT user_id, metric_id, day FROM dirty_days ORDER BY user_id, metric_id, day
                    LIMIT \(Int64(limit)) FOR UPDATE SKIP LOCKED)
                RETURNING user_id, metric_id, day
                """, logger: logger)
            var keys: [PostgresDirtyGroup: [Int64]] = [:]
            for try await (user, metric, day) in rows.decode((Int64, Int32, Int32).self) {
                keys[PostgresDirtyGroup(user: user, metric: metric), default: []].append(Int64(day))
            }
            // In order of user: two refreshes take the users' nights locks in the same order.
            for (group, days) in keys.sorted(by: { ($0.key.user, $0.key.metric) < ($1.key.user, $1.key.metric) }) {
                try await projector.recompute(
                    user: group.user, metric: group.metric, days: days, connection: connection, logger: logger,
                    now: now)
            }
        }
        for try await count in try await client.query("SELECT count(*) FROM dirty_days", logger: logger).decode(
            Int64.self)
        {
            return Int(count)
        }
        return 0
    }

    /// Recomputes the dirty days of one key range before they are read. Unlike the background
    /// refresh it waits for a collector computing the same days, then reads its results.
    private func recompute(user: Int64, metric: Int32, days: ClosedRange<Int64>) async throws {
        let now = now()
        let projector = PostgresProjector(catalog: catalog)
        let logger = logger
        try await transaction { connection in
            var dirty: [Int64] = []
            for try await day in try await connection.query(
                """
                DELETE FROM dirty_days WHERE user_id = \(user) AND metric_id = \(metric)
                    AND day BETWEEN \(Int32(clamping: days.lowerBound)) AND \(Int32(clamping: days.upperBound))
                RETURNING day
                """, logger: logger
            ).decode(Int32.self) {
                dirty.append(Int64(day))
            }
            try await projector.recompute(
                user: user, metric: metric, days: dirty, connection: connection, logger: logger, now: now)
        }
    }
}

/// A user's metric, the unit the refresh recomputes dirty days by.
struct PostgresDirtyGroup: Hashable {
    let user: Int64
    let metric: Int32
}
