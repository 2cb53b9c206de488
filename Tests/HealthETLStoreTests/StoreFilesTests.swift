import Foundation
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// Health data stays private: 0700 directory, 0600 files, and no opening a store others can read.
@Suite(.serialized) struct StoreFilesTests {
    let directory = TemporaryDirectory()

    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func newStoreIsPrivateUnderUmask022() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let path = directory.child("nested/store")
        let store = try Store(directory: StoreDirectory(path: path))
        try store.commit(
            CommitBatch(
                stream: "s", samples: [LanedSample(RecordFixtures.sample(index: 0), lane: .hot)], cursors: [.hot: 1]))
        #expect(try mode(path) == 0o700)
        // While the store is open, WAL and shared memory exist and must be as private as the database.
        for suffix in ["", "-wal", "-shm"] {
            let file = path + "/" + StoreDirectory.databaseName + suffix
            #expect(FileManager.default.fileExists(atPath: file), "\(file) should exist")
            #expect(try mode(file) == 0o600, "\(file)")
        }
    }

    @Test func migrationFromEmptyAppliesEveryStepOnce() throws {
        let path = directory.child("store")
        let store = try Store(directory: StoreDirectory(path: path))
        #expect(try store.appliedMigrations() == StoreSchema.migrations.map(\.name))
        let tables = try store.connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var names: [String] = []
        while try tables.step() { names.append(tables.text(0) ?? "") }
        for table in [
            "cursors", "devices", "dirty_keys", "import_runs", "metrics", "quarantine", "samples", "sources", "streams",
            "tombstones",
        ] {
            #expect(names.contains(table), "missing table \(table)")
        }
        let again = try Migrator(migrations: StoreSchema.migrations).migrate(store.connection, nowMilliseconds: 0)
        #expect(again.isEmpty)
        let journal = try store.connection.prepare("PRAGMA journal_mode")
        #expect(try journal.step())
        #expect(journal.text(0) == "wal")
    }

    @Test func storeFromANewerVersionIsRefused() throws {
        let path = directory.child("store")
        do {
            let store = try Store(directory: StoreDirectory(path: path))
            try store.connection.execute("INSERT INTO schema_migrations VALUES ('9999_future', 0)")
        }
        #expect(throws: DatabaseError.newerSchema(migration: "9999_future")) {
            _ = try Store(directory: StoreDirectory(path: path))
        }
    }

    @Test func worldReadableDatabaseIsRefusedWithTheFix() throws {
        let path = directory.child("store")
        _ = try Store(directory: StoreDirectory(path: path))
        let database = path + "/" + StoreDirectory.databaseName
        chmod(database, 0o644)
        do {
            _ = try Store(directory: StoreDirectory(path: path))
            Issue.record("a world-readable database was opened")
        } catch let error as DatabaseError {
            guard case .unsafePermissions(let file, let mode, let fix) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(file == database)
            #expect(mode == 0o644)
            #expect(fix == "chmod 600 '\(database)'")
            #expect(error.description.contains("other users can read it"))
        }
        chmod(database, 0o600)
        _ = try Store(directory: StoreDirectory(path: path))
    }

    @Test func groupReadableDirectoryIsRefused() throws {
        let path = directory.child("store")
        _ = try Store(directory: StoreDirectory(path: path))
        chmod(path, 0o750)
        #expect {
            _ = try Store(directory: StoreDirectory(path: path))
        } throws: { error in
            guard case DatabaseError.unsafePermissions(let file, 0o750, let fix)? = error as? DatabaseError else {
                return false
            }
            return file == path && fix.hasPrefix("chmod 700")
        }
    }

    @Test func aFileWhereTheStoreShouldBeIsRefused() throws {
        let path = directory.child("not-a-directory")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: DatabaseError.notADirectory(path: path)) {
            _ = try Store(directory: StoreDirectory(path: path))
        }
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAsDamaged() throws {
        let path = directory.child("store")
        _ = try Store(directory: StoreDirectory(path: path))
        let database = path + "/" + StoreDirectory.databaseName
        for suffix in StoreDirectory.sidecarSuffixes { unlink(database + suffix) }
        let garbage = Data(repeating: 0x5A, count: 64 * 1024)
        try garbage.write(to: URL(fileURLWithPath: database))
        #expect {
            _ = try Store(directory: StoreDirectory(path: path))
        } throws: { error in
            guard case DatabaseError.damaged(let file, _)? = error as? DatabaseError else { return false }
            return file == database && "\(error)".contains("restore it from a backup")
        }
    }
}
