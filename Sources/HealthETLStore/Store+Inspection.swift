import HealthETLCore
import HealthETLSQLite

extension Store {
    /// SQLite's own consistency check: `["ok"]` for a sound database.
    public func integrityCheck() throws -> [String] {
        try connection.integrityFindings(thorough: true)
    }

    /// SQLite's `quick_check`: every page well formed (it reads the whole file, not the indexes
    /// against their tables). `["ok"]` for a sound database.
    public func quickCheck() throws -> [String] {
        try connection.integrityFindings(thorough: false, limit: 5)
    }

    /// The migrations this healthetl knows: a store with all of them has its schema.
    public static var knownMigrationCount: Int { StoreSchema.migrations.count }

    /// Every stored row as text, without what legitimately differs between two runs that imported
    /// the same data (commit times, run ids, interning order). Two stores with equal contents give
    /// equal lists: crash tests compare a killed-and-resumed store with a clean one this way.
    package func contentRows() throws -> [String] {
        let queries = [
            """
            SELECT hex(s.id), m.name, so.name, s.source_version, d.description, s.start_ms, s.end_ms,
                s.utc_offset_s, s.value, s.category, s.value_text, s.unit_text, s.flags, s.lane, s.metadata,
                st.name, ss.points
            FROM samples s JOIN metrics m ON m.id = s.metric_id JOIN sources so ON so.id = s.source_id
            LEFT JOIN devices d ON d.id = s.device_id JOIN streams st ON st.id = s.stream_id
            LEFT JOIN sample_series ss ON ss.sample_rowid = s.rowid
            """,
            "SELECT hex(id), reason, detail, raw FROM quarantine",
            "SELECT hex(t.sample_id), t.reason, t.deleted_ms, t.start_ms, t.end_ms FROM tombstones t",
            "SELECT hex(id), activity_type, start_ms, end_ms, duration_s, totals, metadata, route_files, lane FROM workouts",
            "SELECT hex(workout_id), part, seq, type, date_ms FROM workout_events",
            "SELECT hex(workout_id), part, seq, type, sum, average, minimum, maximum, unit FROM workout_statistics",
            "SELECT hex(workout_id), seq, time_ms, latitude, longitude FROM workout_route_points",
            "SELECT day, attributes FROM activity_summaries",
            "SELECT hex(id), kind, start_ms, end_ms, body FROM export_documents",
            "SELECT s.name, c.lane, c.position FROM cursors c JOIN streams s ON s.id = c.stream_id",
            "SELECT m.name, d.day FROM dirty_keys d JOIN metrics m ON m.id = d.metric_id",
        ]
        var rows: [String] = []
        for (table, sql) in queries.enumerated() {
            let statement = try connection.prepare(sql)
            let columns = statement.columnCount
            var tableRows: [String] = []
            while try statement.step() {
                tableRows.append(
                    "\(table)|"
                        + (0..<columns).map { statement.isNull($0) ? "NULL" : statement.text($0) ?? "" }
                        .joined(separator: "|"))
            }
            rows += tableRows.sorted()
        }
        return rows
    }
}
