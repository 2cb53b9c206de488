import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite

/// The collector's embedded storage: one SQLite database in the data directory, written and read
/// on one queue (SQLite has one writer anyway).
public final class SQLiteCollectorStorage: CollectorStorage {
    let database: DatabaseQueue<StorageState>
    let projector: Projector
    let now: @Sendable () -> Instant

    /// Opens (creating when new, 0700/0600) the database in `directory` and registers the users.
    /// `upgrading` is told the migrations about to run on a database an earlier version wrote:
    /// one may copy every stored sample (0005 took 28 s for 5 million here), and the caller
    /// says so before the wait.
    public init(
        directory: String, users: [String], catalog: MetricCatalog, clock: Clock = .system,
        upgrading: ([String]) -> Void = { _ in }
    ) throws {
        let now = clock.now
        let connection = try SQLiteConnection.open(
            in: DatabaseDirectory(path: directory), profile: .collector, migrations: CollectorSchema.migrations,
            nowMilliseconds: now().millisecondsSinceEpoch, upgrading: upgrading)
        var state = try StorageState(connection: connection)
        for user in users { try state.registerUser(user, connection: connection) }
        database = DatabaseQueue(label: "healthetl.collector.database", connection: connection, state: state)
        projector = Projector(catalog: catalog)
        self.now = now
    }

    public func apply(_ batch: ValidatedBatch, user: String, bodyDigest: [UInt8]) async throws -> BatchOutcome {
        let now = now()
        let projector = projector
        return try await database.run { connection, state in
            // The metric ids and spans the batch notes are kept only once it is committed: a
            // rolled-back batch's metric row is gone, and a later batch must insert it again.
            var noted = state
            let outcome = try connection.writeTransaction {
                let userID = try state.userID(user)
                if let earlier = try state.storedBatch(user: userID, id: batch.id, connection: connection) {
                    return earlier.digest == bodyDigest
                        ? BatchOutcome.replayed(response: earlier.response) : .differentBody
                }
                var writer = try BatchWriter(
                    user: userID, now: now, state: state, connection: connection, projector: projector)
                let response = try writer.write(batch)
                noted = writer.state
                let change = try SQLiteChangeFeed.append(
                    dirty: writer.dirty, user: userID, state: noted, now: now, connection: connection)
                let bytes = Array(try ResponseJSON.encoder.encode(response))
                try connection.prepare(
                    "INSERT INTO batches(user_id, batch_id, body_sha256, response, received_ms) VALUES (?1, ?2, ?3, ?4, ?5)"
                ).run(
                    .integer(userID), .text(batch.id), .blob(bodyDigest), .blob(bytes),
                    .integer(now.millisecondsSinceEpoch))
                return .stored(response: bytes, change: change)
            }
            state = noted
            return outcome
        }
    }
}
