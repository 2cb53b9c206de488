import HealthETLCollectorStorage
import HealthETLCore
import PostgresNIO

/// The reads `serve --mcp`'s tools make of one user's samples beyond the projections.
extension PostgresCollectorStorage {
    public func metricSummaries(user name: String) async throws -> [MetricSummary] {
        let user = try await identifiers.user(name)
        let rows = try await client.query(
            """
            SELECT m.name, min(s.start_ms + coalesce(s.utc_offset_s, 0)::bigint * 1000),
                max(s.start_ms + coalesce(s.utc_offset_s, 0)::bigint * 1000), count(*)
            FROM samples s JOIN metrics m ON m.id = s.metric_id WHERE s.user_id = \(user)
            GROUP BY m.name ORDER BY m.name
            """, logger: logger)
        var summaries: [MetricSummary] = []
        for try await (metric, first, last, count) in rows.decode((String, Int64, Int64, Int64).self) {
            summaries.append(
                MetricSummary(
                    metric: metric, firstDay: Instant(millisecondsSinceEpoch: first).utcDay,
                    lastDay: Instant(millisecondsSinceEpoch: last).utcDay, samples: Int(count)))
        }
        return summaries
    }

    public func sourceSummaries(user name: String) async throws -> [SourceSamples] {
        let user = try await identifiers.user(name)
        // Sorted in Swift: the database's collation may order names otherwise than SQLite.
        let rows = try await client.query(
            "SELECT source, device, count(*) FROM samples WHERE user_id = \(user) GROUP BY source, device",
            logger: logger)
        var grouped: [(source: String, device: String?, samples: Int)] = []
        for try await (source, device, count) in rows.decode((String, String?, Int64).self) {
            grouped.append((source, device, Int(count)))
        }
        grouped.sort { ($0.source, $0.device ?? "") < ($1.source, $1.device ?? "") }
        return SourceSamples.grouping(grouped)
    }

    public func samples(
        user name: String, metric: String, starts: Range<Int64>, after: (start: Int64, id: ContentID)?, limit: Int
    ) async throws -> [Sample] {
        let user = try await identifiers.user(name)
        guard let metricID = try await identifiers.existingMetric(metric, client: client, logger: logger) else {
            return []
        }
        let afterStart = after?.start ?? Int64.min
        let afterID = ByteBuffer(bytes: after?.id.bytes ?? [])
        let rows = try await client.query(
            """
            SELECT \(unescaped: ProjectionPlan.sampleColumns)
            FROM samples WHERE user_id = \(user) AND metric_id = \(metricID)
                AND start_ms >= \(starts.lowerBound) AND start_ms < \(starts.upperBound)
                AND (start_ms, id) > (\(afterStart), \(afterID))
            ORDER BY start_ms, id LIMIT \(Int64(limit))
            """, logger: logger)
        var samples: [Sample] = []
        for try await row in rows { samples.append(try PostgresProjector.sample(row, metric: metric)) }
        return samples
    }

    public func activity(user name: String) async throws -> UserActivity {
        let user = try await identifiers.user(name)
        let rows = try await client.query(
            """
            SELECT (SELECT max(received_ms) FROM batches WHERE user_id = \(user)),
                (SELECT count(*) FROM dirty_days WHERE user_id = \(user)),
                (SELECT count(*) FROM samples WHERE user_id = \(user))
            """, logger: logger)
        for try await (last, dirty, samples) in rows.decode((Int64?, Int64, Int64).self) {
            return UserActivity(
                lastBatch: last.map { Instant(millisecondsSinceEpoch: $0) }, daysAwaitingRefresh: Int(dirty),
                samples: Int(samples))
        }
        return UserActivity(lastBatch: nil, daysAwaitingRefresh: 0, samples: 0)
    }
}
