import Foundation
import HealthETLCollectorStorage
import HealthETLCore
import HealthETLWire
import Logging
import NIOCore
import PostgresNIO

/// The collector's storage on PostgreSQL. Any number of collectors may share the database: a batch is
/// claimed and applied in one transaction, so two collectors given the same batch store it once
/// (the second waits on the first's claim and then replays its response), and a collector that
/// dies mid-way leaves nothing behind (its transaction rolls back, the claim with it).
public final class PostgresCollectorStorage: Sendable {
    let client: PostgresClient
    let logger: Logger
    let catalog: MetricCatalog
    let now: @Sendable () -> Instant
    let identifiers = PostgresIdentifiers()
    let partitions = PostgresPartitions()

    /// `client` must be running (`client.run()`) while this is used.
    public init(client: PostgresClient, catalog: MetricCatalog, clock: Clock = .system, logger: Logger) {
        self.client = client
        self.catalog = catalog
        self.now = clock.now
        self.logger = logger
    }

    /// Applies the schema's migrations (once, whatever number of collectors start together) and
    /// registers the users.
    public func prepare(users: [String]) async throws {
        try await PostgresMigrator(migrations: PostgresCollectorSchema.migrations).migrate(client, logger: logger)
        try await identifiers.register(users: users, client: client, logger: logger)
        // Every user has a priority row, empty until set: what projections lock to order
        // themselves with a change of it (`PostgresProjector`).
        _ = try await client.query(
            "INSERT INTO source_priorities(user_id, sources, updated_ms) SELECT id, '[]', 0 FROM users ON CONFLICT DO NOTHING",
            logger: logger)
        _ = try await client.query(
            "INSERT INTO feed_heads(user_id, seq) SELECT id, 0 FROM users ON CONFLICT DO NOTHING", logger: logger)
    }

    /// Attempts of one transaction when PostgreSQL cancels it to break a deadlock or a
    /// serialization conflict (it rolled back whole, so trying again is safe).
    static let attempts = 5

    /// Runs `body` in a transaction, again when PostgreSQL cancels it for a deadlock (40P01) or a
    /// serialization failure (40001): collectors lock rows in key order, but a new source order
    /// (its priority row, then dirty keys) and a projection (dirty keys, then the priority row)
    /// can still meet the other way round.
    func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        var attempt = 1
        while true {
            do {
                return try await client.withTransaction(logger: logger) { try await body($0) }
            } catch let error where attempt < Self.attempts && Self.isTransient(error) {
                attempt += 1
                try await Task.sleep(for: .milliseconds(Int64.random(in: 5...(20 * Int64(attempt)))))
            }
        }
    }

    static func isTransient(_ error: any Error) -> Bool {
        let found = (error as? PostgresTransactionError).flatMap { $0.closureError ?? $0.commitError } ?? error
        guard let psql = found as? PSQLError, let state = psql.serverInfo?[.sqlState] else { return false }
        return state == "40P01" || state == "40001"
    }

    public func apply(_ batch: ValidatedBatch, user name: String, bodyDigest: [UInt8]) async throws -> BatchOutcome {
        let now = now()
        let user = try await identifiers.user(name)
        let metrics = try await identifiers.metrics(
            Set(batch.samples.map(\.metric) + batch.deletions.map(\.metric)), catalog: catalog, client: client,
            logger: logger)
        try await partitions.ensure(batch.samples.map(\.start), client: client, logger: logger)
        let logger = logger
        return try await transaction { connection in
            try await PostgresDeletionLock.take(for: batch, user: user, connection: connection, logger: logger)
            let claimed = try await connection.query(
                """
                INSERT INTO batches(user_id, batch_id, body_sha256, received_ms)
                VALUES (\(user), \(batch.id), \(ByteBuffer(bytes: bodyDigest)), \(now.millisecondsSinceEpoch))
                ON CONFLICT (user_id, batch_id) DO NOTHING RETURNING 1
                """, logger: logger
            ).collect()
            guard !claimed.isEmpty else {
                // Stored before (or by another collector that just committed it).
                for try await (digest, response) in try await connection.query(
                    "SELECT body_sha256, response FROM batches WHERE user_id = \(user) AND batch_id = \(batch.id)",
                    logger: logger
                ).decode((ByteBuffer, ByteBuffer).self) {
                    return Array(digest.readableBytesView) == bodyDigest
                        ? .replayed(response: Array(response.readableBytesView)) : .differentBody
                }
                throw CollectorError("batch \(batch.id) vanished while it was being read")
            }
            let writer = PostgresBatchWriter(
                user: user, now: now, connection: connection, logger: logger, metrics: metrics)
            let (answer, change) = try await writer.write(batch)
            let response = Array(try ResponseJSON.encoder.encode(answer))
            _ = try await connection.query(
                "UPDATE batches SET response = \(ByteBuffer(bytes: response)) WHERE user_id = \(user) AND batch_id = \(batch.id)",
                logger: logger)
            return .stored(response: response, change: change)
        }
    }

    public func sourcePriority(user name: String) async throws -> [String] {
        let user = try await identifiers.user(name)
        for try await text in try await client.query(
            "SELECT sources FROM source_priorities WHERE user_id = \(user)", logger: logger
        ).decode(String.self) {
            return ProjectionPlan.decodeSources(text)
        }
        return []
    }

    /// Replaces the user's source priority; when it changed, every day of the user's projections
    /// is marked dirty.
    @discardableResult
    public func setSourcePriority(_ sources: [String], user name: String) async throws -> Bool {
        let user = try await identifiers.user(name)
        let text = JSONText.array(sources)
        let now = now().millisecondsSinceEpoch
        let logger = logger
        return try await transaction { connection in
            var stored: [String] = []
            for try await sources in try await connection.query(
                "SELECT sources FROM source_priorities WHERE user_id = \(user) FOR UPDATE", logger: logger
            ).decode(String.self) {
                stored = ProjectionPlan.decodeSources(sources)
            }
            guard stored != sources else { return false }
            _ = try await connection.query(
                """
                INSERT INTO source_priorities(user_id, sources, updated_ms) VALUES (\(user), \(text), \(now))
                ON CONFLICT (user_id) DO UPDATE SET sources = excluded.sources, updated_ms = excluded.updated_ms
                """, logger: logger)
            _ = try await connection.query(
                """
                INSERT INTO dirty_days(user_id, metric_id, day)
                SELECT user_id, metric_id, day FROM daily_rollups WHERE user_id = \(user)
                ORDER BY metric_id, day
                ON CONFLICT (user_id, metric_id, day) DO UPDATE SET day = excluded.day
                """, logger: logger)
            // Recomputing day N recomputes night N too.
            _ = try await connection.query(
                """
                INSERT INTO dirty_days(user_id, metric_id, day)
                SELECT n.user_id, m.id, n.night FROM sleep_nights n JOIN metrics m ON m.name = \(ProjectionPlan.sleepMetric)
                WHERE n.user_id = \(user)
                ORDER BY m.id, n.night
                ON CONFLICT (user_id, metric_id, day) DO UPDATE SET day = excluded.day
                """, logger: logger)
            try await PostgresChangeFeed.appendEverything(
                user: user, now: self.now(), connection: connection, logger: logger)
            return true
        }
    }
}
