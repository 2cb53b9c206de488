import HealthETLCore
import HealthETLSQLite

/// What happens on a phone between two exports, applied to a copy of the earlier database:
/// records deleted (their child rows go with them, as the module's foreign keys cascade) and
/// records edited in place (same uuid and row, a new value and a newer `last_modified_time`).
enum HealthConnectSnapshotChanges {
    /// Deletes every eleventh watch step record, the watch's third night (with its stages) and its
    /// third run (with laps, segments and route); edits every fourth weigh-in. Returns the
    /// records deleted and edited.
    static func apply(to connection: SQLiteConnection, at now: Instant) throws -> (deleted: Int, edited: Int) {
        try connection.execute("PRAGMA foreign_keys = ON")
        return try connection.writeTransaction {
            var deleted = try connection.prepare(
                "DELETE FROM steps_record_table WHERE app_info_id = 1 AND row_id % 11 = 0"
            ).run()
            for table in ["sleep_session_record_table", "exercise_session_record_table"] {
                deleted += try connection.prepare(
                    "DELETE FROM \(table) WHERE row_id = "
                        + "(SELECT row_id FROM \(table) WHERE app_info_id = 1 ORDER BY row_id LIMIT 1 OFFSET 2)"
                ).run()
            }
            let edited = try connection.prepare(
                "UPDATE weight_record_table SET weight = weight - 300, last_modified_time = ?1 WHERE row_id % 4 = 0"
            ).run(.integer(now.millisecondsSinceEpoch))
            return (deleted, edited)
        }
    }
}
