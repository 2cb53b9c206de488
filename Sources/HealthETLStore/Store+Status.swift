import HealthETLCore
import HealthETLSQLite

extension Store {
    /// Counts by metric, quarantine reason, cursor and table, read in one consistent snapshot.
    public func status() throws -> StoreStatus {
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        let byMetric = try counts(
            "SELECT m.name, count(*) FROM samples s JOIN metrics m ON m.id = s.metric_id GROUP BY m.name")
        let byReason = try quarantineCounts()
        let cursorRows = try connection.prepare(
            """
            SELECT s.name, c.lane, c.position, c.updated_ms FROM cursors c
            JOIN streams s ON s.id = c.stream_id ORDER BY s.name, c.lane
            """)
        var cursors: [StoreStatus.Cursor] = []
        while try cursorRows.step() {
            let lane = Lane(code: Int(cursorRows.int64(1)))?.rawValue ?? "unknown"
            cursors.append(
                StoreStatus.Cursor(
                    stream: cursorRows.text(0) ?? "", lane: lane, position: cursorRows.int64(2),
                    updatedAt: Instant(millisecondsSinceEpoch: cursorRows.int64(3)).description))
        }
        return StoreStatus(
            store: directory.path,
            schema: try appliedMigrations(),
            samples: StoreStatus.Samples(
                total: byMetric.values.reduce(0, +),
                flagged: Int(
                    try connection.scalar(
                        "SELECT count(*) FROM samples WHERE flags & \(SampleFlags.review.rawValue) <> 0") ?? 0),
                byMetric: byMetric),
            quarantine: StoreStatus.Quarantine(total: byReason.values.reduce(0, +), byReason: byReason),
            cursors: cursors,
            tombstones: StoreStatus.Tombstones(
                total: Int(try connection.scalar("SELECT count(*) FROM tombstones") ?? 0)),
            workouts: try workoutStatus(),
            dirtyProjectionKeys: Int(try connection.scalar("SELECT count(*) FROM dirty_keys") ?? 0),
            importRuns: Int(try connection.scalar("SELECT count(*) FROM import_runs") ?? 0),
            queue: try queueStatus(), feed: try feedStatus())
    }

    private func feedStatus() throws -> StoreStatus.Feed {
        guard let cursor = try feedCursor() else { return StoreStatus.Feed(rebuilds: 0) }
        return StoreStatus.Feed(
            endpoint: cursor.endpoint, cursor: cursor.cursor, head: cursor.head, behind: cursor.head - cursor.cursor,
            lastEvent: cursor.lastEventAt?.description, lastApplied: cursor.appliedAt.description,
            lagSeconds: Double(now().millisecondsSinceEpoch - cursor.appliedAt.millisecondsSinceEpoch) / 1000,
            rebuilds: cursor.rebuilds)
    }

    private func queueStatus() throws -> StoreStatus.Queue {
        let counts = try uploadCounts()
        let last = try connection.scalar("SELECT max(finished_ms) FROM upload_runs")
        return StoreStatus.Queue(
            pending: counts[.pending] ?? 0, inFlight: counts[.inFlight] ?? 0, failed: counts[.failed] ?? 0,
            dead: counts[.dead] ?? 0, done: counts[.done] ?? 0,
            rejectedItems: Int(try connection.scalar("SELECT count(*) FROM upload_rejections") ?? 0),
            lastUpload: last.map { Instant(millisecondsSinceEpoch: $0).description })
    }

    /// Counts by name from a `SELECT name, count(*) … GROUP BY name`.
    func counts(_ sql: String) throws -> [String: Int] {
        let statement = try connection.prepare(sql)
        var counts: [String: Int] = [:]
        while try statement.step() { counts[statement.text(0) ?? ""] = Int(statement.int64(1)) }
        return counts
    }
}

extension Store {
    /// Every workout, and the pairs that are one workout recorded by two sources.
    private func workoutStatus() throws -> StoreStatus.Workouts {
        let all = try workoutListings(
            starts: Instant(millisecondsSinceEpoch: .min)..<Instant(millisecondsSinceEpoch: .max))
        let matcher = WorkoutMatcher(priority: SourcePriority(), catalog: try MetricCatalog.bundled())
        return StoreStatus.Workouts(total: all.count, matchedAcrossSources: matcher.preferred(all).matched)
    }
}
