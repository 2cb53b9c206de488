import Logging
import PostgresNIO

/// Applies the collector's migrations to a PostgreSQL database, each once, in order. Several
/// collectors starting together serialize on a session advisory lock, so the first applies
/// what is missing and the others find it applied.
struct PostgresMigrator {
    /// The advisory lock's key: "hetl" in ASCII.
    static let lockKey: Int64 = 0x6865_746C

    let migrations: [PostgresCollectorSchema.Migration]

    /// - Returns: the names of the migrations this call applied.
    @discardableResult
    func migrate(_ client: PostgresClient, logger: Logger) async throws -> [String] {
        try await client.withConnection { connection in
            _ = try await connection.query("SELECT pg_advisory_lock(\(Self.lockKey))", logger: logger)
            do {
                let applied = try await apply(on: connection, logger: logger)
                _ = try await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                return applied
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                throw error
            }
        }
    }

    private func apply(on connection: PostgresConnection, logger: Logger) async throws -> [String] {
        _ = try await connection.query(
            "CREATE TABLE IF NOT EXISTS schema_migrations(name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
            logger: logger)
        var done = Set<String>()
        for try await name in try await connection.query("SELECT name FROM schema_migrations", logger: logger)
            .decode(String.self)
        {
            done.insert(name)
        }
        var applied: [String] = []
        for migration in migrations where !done.contains(migration.name) {
            // One transaction per migration: it is applied whole or not at all.
            _ = try await connection.query("BEGIN", logger: logger)
            do {
                for statement in migration.sql {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                _ = try await connection.query(
                    "INSERT INTO schema_migrations(name) VALUES (\(migration.name))", logger: logger)
                _ = try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
            applied.append(migration.name)
        }
        return applied
    }
}
