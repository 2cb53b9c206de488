import Foundation
import HealthETLSQLite
import HealthETLTestSupport
import Testing

/// A writer's checkpoints run on a thread of their own (`BackgroundCheckpoint`), and the log
/// still starts over once they caught up: it stays as short as SQLite's own checkpoints keep it.
@Suite struct BackgroundCheckpointTests {
    let directory = TemporaryDirectory("background-checkpoint")
    /// Pages in the log that start a checkpoint, kept small so a few commits pass it many times.
    static let threshold: Int32 = 8

    func open(_ database: DatabaseDirectory) throws -> SQLiteConnection {
        let connection = try SQLiteConnection.open(
            in: database, profile: .store, migrations: [], nowMilliseconds: 0)
        connection.checkpointInBackground(path: database.databasePath, threshold: Self.threshold)
        try connection.execute("CREATE TABLE rows(id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        return connection
    }

    func logBytes(_ database: DatabaseDirectory) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: database.databasePath + "-wal"))?[.size] as? Int) ?? 0
    }

    /// Two pages a commit, 200 commits: without starting over, the log would reach 400 pages.
    /// Returns the longest the log was and the checkpoints run beside the writer.
    func write(_ connection: SQLiteConnection, _ database: DatabaseDirectory) throws -> (longest: Int, background: Int)
    {
        let insert = try connection.prepare("INSERT INTO rows(payload) VALUES (zeroblob(20000))")
        var longest = 0
        for _ in 0..<200 {
            try connection.writeTransaction { _ = try insert.execute() }
            longest = max(longest, logBytes(database))
        }
        #expect(try connection.scalar("SELECT count(*) FROM rows") == 200)
        #expect(try connection.integrityFindings(thorough: true) == ["ok"])
        return (longest, connection.checkpointsCopiedInBackground)
    }

    @Test func theLogStaysShortWhileCheckpointsRunBesideTheWriter() throws {
        let database = DatabaseDirectory(path: directory.child("db"))
        let (longest, background) = try write(try open(database), database)
        #expect(background > 0)
        // A page is 16 KiB and a frame 24 bytes more; the writer waits at four times the threshold.
        let bound = Int(4 * Self.threshold + 8) * (16_384 + 24) + 32
        #expect(longest <= bound, "the log reached \(longest) bytes")
        // The writer's connection is gone, and the checkpoint thread's closed before it: the
        // last to close checkpointed the rest and removed the log.
        #expect(!FileManager.default.fileExists(atPath: database.databasePath + "-wal"))
        let reopened = try SQLiteConnection(path: database.databasePath)
        #expect(try reopened.scalar("SELECT count(*) FROM rows") == 200)
    }
}
