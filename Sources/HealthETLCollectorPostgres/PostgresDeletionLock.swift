import HealthETLCollectorStorage
import PostgresNIO

/// Orders a user's deletions against the user's sample writes on PostgreSQL. A batch reads before
/// it writes (its samples read the deletions, `DeletionOrder.staysDeleted`; its tombstones read
/// the stored samples), and under READ COMMITTED two batches in flight at once each miss what the
/// other has not committed: a deletion beside its sample's first insert (an upload killed after
/// sending goes on at one collector while the next run sends the deletion to another) deleted
/// nothing, the insert found no deletion, and the deleted sample stayed stored. A batch with
/// deletions holds the user's lock alone, batches with samples only share it: inserts still run
/// side by side, and a deletion runs between them. SQLite needs none: it has one writer.
enum PostgresDeletionLock {
    /// The advisory lock's key: the user's id within a space of its own (`PostgresPartitions`
    /// keys months with `hetp`; XOR cannot overflow, and keeps users apart).
    static func key(user: Int64) -> Int64 { 0x6865_7464_0000_0000 ^ user }

    /// Takes the user's lock for `batch` until the transaction ends. Call it first in the
    /// transaction, before any row lock: a batch then never waits for it while holding a row
    /// another batch waits for.
    static func take(for batch: ValidatedBatch, user: Int64, connection: PostgresConnection, logger: Logger)
        async throws
    {
        let key = key(user: user)
        if !batch.deletions.isEmpty {
            _ = try await connection.query("SELECT pg_advisory_xact_lock(\(key))", logger: logger).collect()
        } else if !batch.samples.isEmpty {
            _ = try await connection.query("SELECT pg_advisory_xact_lock_shared(\(key))", logger: logger).collect()
        }
    }
}
