import HealthETLCollectorStorage
import HealthETLSQLite

extension DirtyDay {
    /// Marks the keys dirty for the background refresh (a key already dirty stays so).
    static func insert(_ keys: Set<DirtyDay>, user: Int64, connection: SQLiteConnection) throws {
        guard !keys.isEmpty else { return }
        let statement = try connection.prepare(
            "INSERT INTO dirty_days(user_id, metric_id, day) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING")
        for key in keys {
            try statement.bind(.integer(user), .integer(key.metric), .integer(key.day))
            _ = try statement.execute()
        }
    }
}
