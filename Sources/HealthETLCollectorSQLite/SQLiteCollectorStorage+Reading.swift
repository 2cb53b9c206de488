import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite

/// The reads `serve --mcp`'s tools make of one user's samples beyond the projections.
extension SQLiteCollectorStorage {
    public func metricSummaries(user: String) async throws -> [MetricSummary] {
        try await database.run { connection, state in
            let statement = try connection.prepare(
                """
                SELECT metric_id, min(start_ms + coalesce(utc_offset_s, 0) * 1000),
                    max(start_ms + coalesce(utc_offset_s, 0) * 1000), count(*)
                FROM samples WHERE user_id = ?1 GROUP BY metric_id
                """)
            try statement.bind(.integer(try state.userID(user)))
            var summaries: [MetricSummary] = []
            while try statement.step() {
                guard let name = state.metricNames[statement.int64(0)] else { continue }
                summaries.append(
                    MetricSummary(
                        metric: name, firstDay: Instant(millisecondsSinceEpoch: statement.int64(1)).utcDay,
                        lastDay: Instant(millisecondsSinceEpoch: statement.int64(2)).utcDay,
                        samples: Int(statement.int64(3))))
            }
            return summaries.sorted { $0.metric < $1.metric }
        }
    }

    public func sourceSummaries(user: String) async throws -> [SourceSamples] {
        try await database.run { connection, state in
            let statement = try connection.prepare(
                """
                SELECT source.text, device.text, held.samples
                FROM (SELECT source_id, device_id, count(*) AS samples FROM samples WHERE user_id = ?1
                    GROUP BY source_id, device_id) AS held
                JOIN texts AS source ON source.id = held.source_id
                LEFT JOIN texts AS device ON device.id = held.device_id
                ORDER BY source.text, device.text
                """)
            try statement.bind(.integer(try state.userID(user)))
            var rows: [(source: String, device: String?, samples: Int)] = []
            while try statement.step() {
                rows.append((statement.text(0) ?? "", statement.text(1), Int(statement.int64(2))))
            }
            return SourceSamples.grouping(rows)
        }
    }

    public func samples(
        user: String, metric: String, starts: Range<Int64>, after: (start: Int64, id: ContentID)?, limit: Int
    ) async throws -> [Sample] {
        try await database.run { connection, state in
            guard let metricID = state.existingMetricID(metric) else { return [] }
            let statement = try connection.prepare(
                "SELECT \(Projector.sampleColumns) FROM samples"
                    + " WHERE user_id = ?1 AND metric_id = ?2 AND start_ms >= ?3 AND start_ms < ?4"
                    + " AND (start_ms, id) > (?5, ?6) ORDER BY start_ms, id LIMIT ?7")
            try statement.bind(
                .integer(try state.userID(user)), .integer(metricID), .integer(starts.lowerBound),
                .integer(starts.upperBound), .integer(after?.start ?? Int64.min), .blob(after?.id.bytes ?? []),
                .integer(Int64(limit)))
            return try Projector.samples(of: statement, metric: metric, connection: connection)
        }
    }

    public func activity(user: String) async throws -> UserActivity {
        try await database.run { connection, state in
            let userID = try state.userID(user)
            let statement = try connection.prepare(
                """
                SELECT (SELECT max(received_ms) FROM batches WHERE user_id = ?1),
                    (SELECT count(*) FROM dirty_days WHERE user_id = ?1),
                    (SELECT count(*) FROM samples WHERE user_id = ?1)
                """)
            try statement.bind(.integer(userID))
            return try statement.firstRow { row in
                UserActivity(
                    lastBatch: row.isNull(0) ? nil : Instant(millisecondsSinceEpoch: row.int64(0)),
                    daysAwaitingRefresh: Int(row.int64(1)), samples: Int(row.int64(2)))
            } ?? UserActivity(lastBatch: nil, daysAwaitingRefresh: 0, samples: 0)
        }
    }
}
