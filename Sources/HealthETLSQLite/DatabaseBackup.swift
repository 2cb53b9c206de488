import CSQLite
import HealthETLCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `healthetl backup`: a consistent copy of a live database through SQLite's online backup API,
/// checked with `PRAGMA integrity_check` before it is given its name.
///
/// The pages are copied in one step, inside one read transaction: in WAL mode (the store's and
/// the collector's) a reader never blocks a writer, so imports, uploads and the server go on
/// while it runs, and the copy is the database as of one commit. The copy is a single file in
/// rollback-journal mode, 0600; it never overwrites a file.
public enum DatabaseBackup {
    /// What was copied.
    public struct Copy: Sendable, Equatable, Encodable {
        public var source: String
        public var path: String
        public var bytes: Int64
        public var pages: Int64
        /// Migrations the copy has run: its schema version.
        public var migrations: Int64
        public var seconds: Double
        /// `integrity_check`'s verdict on the copy (a copy that fails it is not kept).
        public var integrity = "ok"
    }

    /// Copies the database in `source` to `destination`: a file path, or a directory (existing,
    /// or named with a trailing `/`) that gets `healthetl.sqlite` and can be used as `--store` or
    /// `--data` as it is.
    public static func copy(_ source: DatabaseDirectory, to destination: String) throws -> Copy {
        let target = try targetPath(destination)
        guard access(source.databasePath, R_OK) == 0 else {
            throw DatabaseError.cannotOpen(
                path: source.databasePath, reason: "there is no database there; check --store or --collector-data")
        }
        guard access(target, F_OK) != 0 else {
            throw DatabaseError.cannotOpen(
                path: target, reason: "it exists already; a backup never replaces a file: choose a new name")
        }
        let partial = target + ".partial"
        unlink(partial)
        let started = Clock.system.monotonic()
        let fd = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DatabaseError.cannotOpen(path: partial, reason: String(cString: strerror(errno)))
        }
        close(fd)
        do {
            let copy = try copyPages(from: source.databasePath, into: partial)
            guard rename(partial, target) == 0 else {
                throw DatabaseError.cannotOpen(path: target, reason: String(cString: strerror(errno)))
            }
            return Copy(
                source: source.databasePath, path: target, bytes: copy.bytes, pages: copy.pages,
                migrations: copy.migrations, seconds: Clock.system.secondsSince(started))
        } catch {
            for suffix in ["", "-journal"] { unlink(partial + suffix) }
            throw error
        }
    }

    private static func copyPages(from sourcePath: String, into path: String) throws -> (
        bytes: Int64, pages: Int64, migrations: Int64
    ) {
        let source = try SQLiteConnection(path: sourcePath)
        try source.execute("PRAGMA busy_timeout = 10000")
        let copy = try SQLiteConnection(path: path)
        guard let backup = sqlite3_backup_init(copy.handle, "main", source.handle, "main") else {
            throw SQLiteError(code: sqlite3_errcode(copy.handle), message: copy.lastErrorMessage, statement: nil)
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, -1)
            // Busy or locked: a writer is checkpointing or the file is being created; try again.
            if code == SQLITE_BUSY || code == SQLITE_LOCKED { usleep(20_000) }
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let pages = Int64(sqlite3_backup_pagecount(backup))
        sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errstr(code)), statement: nil)
        }
        // One self-contained file: the copy leaves WAL mode.
        try copy.execute("PRAGMA journal_mode = DELETE")
        let findings = try copy.integrityFindings(thorough: true, limit: 5)
        guard findings == ["ok"] else {
            throw DatabaseError.damaged(path: path, finding: findings.joined(separator: "; "))
        }
        let pageSize = try copy.scalar("PRAGMA page_size") ?? 4096
        let migrations = (try? copy.scalar("SELECT count(*) FROM schema_migrations")) ?? 0
        return (pages * pageSize, pages, migrations)
    }

    /// The copy's file: `destination`, or `destination/healthetl.sqlite` for a directory
    /// (created 0700 when missing).
    static func targetPath(_ destination: String) throws -> String {
        var info = stat()
        let isDirectory = stat(destination, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        guard isDirectory || destination.hasSuffix("/") else { return destination }
        let directory = DatabaseDirectory(path: destination)
        if !isDirectory && mkdir(directory.path, 0o700) != 0 {
            throw DatabaseError.cannotOpen(path: directory.path, reason: String(cString: strerror(errno)))
        }
        return directory.databasePath
    }
}
