import Foundation
import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite
import HealthETLWire

extension SQLiteCollectorStorage {
    public func dailyRollups(user: String, metric: String, from: CivilDate, to: CivilDate) async throws
        -> [WireDailyRollup]
    {
        let days = from.daysSinceEpoch...to.daysSinceEpoch
        try await refreshOffQueue(days: days) { state in
            try state.existingMetricID(metric).map { (try state.userID(user), $0) }
        }
        let now = now()
        let projector = projector
        return try await database.run { connection, state in
            let userID = try state.userID(user)
            guard let metricID = state.existingMetricID(metric) else { return [] }
            try connection.writeTransaction {
                try projector.refresh(
                    user: userID, metric: metricID, days: days, state: state, connection: connection, now: now)
            }
            let statement = try connection.prepare(
                """
                SELECT day, sum, avg, min, max, count, latest, sources, coverage_s, computed_ms FROM daily_rollups
                WHERE user_id = ?1 AND metric_id = ?2 AND day BETWEEN ?3 AND ?4 ORDER BY day
                """)
            try statement.bind(
                .integer(userID), .integer(metricID), .integer(days.lowerBound), .integer(days.upperBound))
            var rollups: [WireDailyRollup] = []
            func optional(_ column: Int32) -> Double? { statement.isNull(column) ? nil : statement.double(column) }
            while try statement.step() {
                rollups.append(
                    WireDailyRollup(
                        metric: metric, day: CivilDate(daysSinceEpoch: statement.int64(0)).description,
                        sum: optional(1),
                        avg: optional(2), min: optional(3), max: optional(4), count: Int(statement.int64(5)),
                        latest: optional(6),
                        sources: ProjectionPlan.decodeSources(statement.text(7)), coverageSeconds: statement.double(8),
                        computedAt: Instant(millisecondsSinceEpoch: statement.int64(9)).description))
            }
            return rollups
        }
    }

    public func sleepNights(user: String, from: CivilDate, to: CivilDate) async throws -> [WireSleepNight] {
        // Night N is dirty when day N or N - 1 is.
        let nights = from.daysSinceEpoch...to.daysSinceEpoch
        try await refreshOffQueue(days: (nights.lowerBound - 1)...nights.upperBound) { state in
            try state.existingMetricID(ProjectionPlan.sleepMetric).map { (try state.userID(user), $0) }
        }
        let now = now()
        let projector = projector
        return try await database.run { connection, state in
            let userID = try state.userID(user)
            guard let metricID = state.existingMetricID(ProjectionPlan.sleepMetric) else { return [] }
            try connection.writeTransaction {
                try projector.refresh(
                    user: userID, metric: metricID, days: (nights.lowerBound - 1)...nights.upperBound, state: state,
                    connection: connection, now: now)
            }
            let statement = try connection.prepare(
                """
                SELECT night, source, in_bed_s, asleep_s, core_s, deep_s, rem_s, awake_s, start_ms, end_ms, computed_ms
                FROM sleep_nights WHERE user_id = ?1 AND night BETWEEN ?2 AND ?3 ORDER BY night
                """)
            try statement.bind(.integer(userID), .integer(nights.lowerBound), .integer(nights.upperBound))
            var result: [WireSleepNight] = []
            while try statement.step() {
                result.append(
                    WireSleepNight(
                        night: CivilDate(daysSinceEpoch: statement.int64(0)).description,
                        source: statement.text(1) ?? "",
                        inBedSeconds: statement.double(2), asleepSeconds: statement.double(3),
                        coreSeconds: statement.double(4),
                        deepSeconds: statement.double(5), remSeconds: statement.double(6),
                        awakeSeconds: statement.double(7),
                        start: Instant(millisecondsSinceEpoch: statement.int64(8)).description,
                        end: Instant(millisecondsSinceEpoch: statement.int64(9)).description,
                        computedAt: Instant(millisecondsSinceEpoch: statement.int64(10)).description))
            }
            return result
        }
    }

    /// Recomputes `user`'s dirty days of `metric` within `days` a run at a time, each projected
    /// off the storage queue: the queue keeps writing batches meanwhile, and reads that come
    /// together project on both cores. A run that a write changed meanwhile is recomputed on the
    /// queue instead. What is still dirty after `rounds` runs, the caller's read refreshes on the
    /// queue as before. `ids` names the user and metric (nil: nothing to refresh).
    private func refreshOffQueue(
        days: ClosedRange<Int64>, rounds: Int = 8,
        ids: @escaping @Sendable (StorageState) throws -> (user: Int64, metric: Int64)?
    ) async throws {
        let projector = projector
        for _ in 0..<rounds {
            let job = try await database.run { connection, state -> ProjectionJob? in
                guard let (userID, metricID) = try ids(state) else { return nil }
                return try connection.writeTransaction {
                    try projector.firstJob(
                        user: userID, metric: metricID, within: days, state: state, connection: connection)
                }
            }
            guard let job else { return }
            let result = job.project()
            let now = now()
            try await database.run { connection, state in
                try connection.writeTransaction {
                    guard try !projector.store(result, of: job, connection: connection, now: now) else { return }
                    try projector.refresh(
                        user: job.user, metric: job.metric, days: job.run, state: state, connection: connection,
                        now: now)
                }
            }
        }
    }

    /// Up to `limit` dirty keys of any users and metrics, recomputed (each run projected off the
    /// queue, so batches keep being written meanwhile); returns how many are left.
    public func refreshProjections(limit: Int) async throws -> Int {
        let projector = projector
        let groups = try await database.run { connection, _ in
            try projector.dirtyGroups(limit: limit, connection: connection)
        }
        for group in groups {
            try await refreshOffQueue(days: group.days) { _ in (group.user, group.metric) }
        }
        return try await database.run { connection, _ in
            Int(try connection.scalar("SELECT count(*) FROM dirty_days") ?? 0)
        }
    }

}
