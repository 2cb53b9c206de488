import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite
import HealthETLWire

extension SQLiteCollectorStorage {
    public func changes(user: String, since: Int64, limit: Int) async throws -> FeedRead {
        try await database.run { connection, state in
            try SQLiteChangeFeed.read(user: try state.userID(user), since: since, limit: limit, connection: connection)
        }
    }

    public func feedHead(user: String) async throws -> Int64 {
        try await database.run { connection, state in
            try SQLiteChangeFeed.head(user: try state.userID(user), connection: connection)
        }
    }

    public func projectionVersion(user: String, metrics: [String], days: ClosedRange<Int64>) async throws -> Int64 {
        try await database.run { connection, state in
            try SQLiteChangeFeed.version(
                user: try state.userID(user), metrics: metrics.compactMap { state.existingMetricID($0) }, days: days,
                connection: connection)
        }
    }

    public func pruneChanges(before cutoff: Instant) async throws -> Int {
        try await database.run { connection, _ in
            try connection.writeTransaction { try SQLiteChangeFeed.prune(before: cutoff, connection: connection) }
        }
    }
}

extension SQLiteCollectorStorage {
    public func extent(user: String) async throws -> [WireMetricExtent] {
        try await database.run { connection, state in
            let userID = try state.userID(user)
            let bounds = try connection.prepare(
                """
                SELECT (SELECT min(start_ms) FROM samples WHERE user_id = ?1 AND metric_id = ?2),
                    (SELECT max(start_ms) FROM samples WHERE user_id = ?1 AND metric_id = ?2)
                """)
            var result: [WireMetricExtent] = []
            for (id, name) in state.metricNames.sorted(by: { $0.value < $1.value }) {
                try bounds.bind(.integer(userID), .integer(id))
                guard let (first, last) = try bounds.firstRow({ ($0.isNull(0) ? nil : $0.int64(0), $0.int64(1)) }),
                    let first
                else { continue }
                result.append(
                    MetricExtent.make(
                        metric: name, firstStart: first, lastStart: last,
                        longest: state.longestSample(user: userID, metric: id)))
            }
            return result
        }
    }
}
