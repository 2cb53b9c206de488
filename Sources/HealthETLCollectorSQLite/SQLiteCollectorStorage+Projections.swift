import Foundation
import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite
import HealthETLWire

extension SQLiteCollectorStorage {
    public func dailyRollups(user: String, metric: String, from: CivilDate, to: CivilDate) async throws
        -> [WireDailyRollup]
    {
        let now = now()
        let projector = projector
        return try await database.run { connection, state in
            let userID = try state.userID(user)
            guard let metricID = state.existingMetricID(metric) else { return [] }
            let days = from.daysSinceEpoch...to.daysSinceEpoch
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
        let now = now()
        let projector = projector
        return try await database.run { connection, state in
            let userID = try state.userID(user)
            guard let metricID = state.existingMetricID(ProjectionPlan.sleepMetric) else { return [] }
            // Night N is dirty when day N or N - 1 is.
            let nights = from.daysSinceEpoch...to.daysSinceEpoch
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

    public func refreshProjections(limit: Int) async throws -> Int {
        let now = now()
        let projector = projector
        return try await database.run { connection, state in
            try connection.writeTransaction {
                try projector.refreshSome(limit: limit, state: state, connection: connection, now: now)
            }
        }
    }

}
