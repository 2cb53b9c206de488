import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite

extension SQLiteCollectorStorage {
    public func sourcePriority(user: String) async throws -> [String] {
        try await database.run { _, state in
            let userID = try state.userID(user)
            return state.priority(user: userID).preferred
        }
    }

    public func setSourcePriority(_ sources: [String], user: String) async throws -> Bool {
        let now = now()
        return try await database.run { connection, state in
            let userID = try state.userID(user)
            let priority = SourcePriority(preferred: sources)
            guard priority != state.priority(user: userID) else { return false }
            try connection.writeTransaction {
                try connection.prepare(
                    """
                    INSERT INTO source_priorities(user_id, sources, updated_ms) VALUES (?1, ?2, ?3)
                    ON CONFLICT(user_id) DO UPDATE SET sources = excluded.sources, updated_ms = excluded.updated_ms
                    """
                ).run(.integer(userID), .text(JSONText.array(sources)), .integer(now.millisecondsSinceEpoch))
                try Self.markEveryProjectionDirty(user: userID, state: state, connection: connection)
                try SQLiteChangeFeed.appendEverything(user: userID, now: now, connection: connection)
            }
            // Only once it is stored: a failed transaction leaves the old order in use.
            state.setPriority(priority, user: userID)
            return true
        }
    }

    /// Marks every day the user has projections for. A day without a rollup has no samples, and
    /// days not computed yet are dirty already, so this covers all the data a new order can
    /// change without reading the samples themselves.
    static func markEveryProjectionDirty(user: Int64, state: StorageState, connection: SQLiteConnection)
        throws
    {
        try connection.prepare(
            """
            INSERT INTO dirty_days(user_id, metric_id, day) SELECT user_id, metric_id, day FROM daily_rollups
            WHERE user_id = ?1 ON CONFLICT DO NOTHING
            """
        ).run(.integer(user))
        guard let sleep = state.existingMetricID(ProjectionPlan.sleepMetric) else { return }
        // Recomputing day N recomputes night N too (the projector loads the evening before it).
        try connection.prepare(
            """
            INSERT INTO dirty_days(user_id, metric_id, day) SELECT user_id, ?2, night FROM sleep_nights
            WHERE user_id = ?1 ON CONFLICT DO NOTHING
            """
        ).run(.integer(user), .integer(sleep))
    }
}
