import CSQLite

/// One SQLite connection. Not thread-safe by design: confine it to one thread or actor.
package final class SQLiteConnection {
    /// Internal, not private: the backup (another file) reads from one handle into another.
    let handle: OpaquePointer
    /// Whether foreign keys are enforced: shared with the statements, which switch them back on.
    let foreignKeys: ForeignKeySwitch

    /// Process-wide settings, applied once before the first connection.
    private static let configured: Void = {
        _ = healthetl_sqlite3_disable_memstatus()
    }()

    /// Opens an existing database file read-write (the caller creates it with safe permissions).
    package convenience init(path: String) throws {
        try self.init(name: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW)
    }

    /// Opens a database file someone else wrote (an export to import) for reading only, as an
    /// unchanging snapshot: `immutable=1` takes no locks and writes nothing beside the file, and
    /// `query_only` refuses any write through this connection. The file is untrusted: the
    /// connection is hardened before its schema is first read (`hardenForUntrustedFile`).
    package convenience init(snapshotAt path: String) throws {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        try self.init(
            name: "file:\(escaped)?immutable=1",
            flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW)
        try hardenForUntrustedFile()
        try execute("PRAGMA query_only = 1")
    }

    private init(name: String, flags: Int32) throws {
        _ = SQLiteConnection.configured
        var db: OpaquePointer?
        let code = sqlite3_open_v2(name, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw SQLiteError(code: code, message: message, statement: nil)
        }
        handle = db
        foreignKeys = ForeignKeySwitch(database: db)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        backgroundCheckpoint?.stop()
        foreignKeys.database = nil
        sqlite3_close_v2(handle)
    }

    /// Set by `checkpointInBackground`.
    private var backgroundCheckpoint: BackgroundCheckpoint?

    /// Moves this writer's checkpoints to a thread of their own (`BackgroundCheckpoint`), with a
    /// connection of its own to the database at `path`.
    package func checkpointInBackground(path: String, threshold: Int32 = BackgroundCheckpoint.defaultThreshold) {
        let checkpoint = BackgroundCheckpoint(path: path, threshold: threshold)
        backgroundCheckpoint = checkpoint
        // Replaces SQLite's own checkpoint after commits (`wal_autocheckpoint`).
        sqlite3_wal_hook(handle, walHook, Unmanaged.passUnretained(checkpoint).toOpaque())
    }

    /// Checkpoints the background thread has run (tests and measurements).
    package var checkpointsCopiedInBackground: Int { backgroundCheckpoint?.checkpointsCopiedInBackground ?? 0 }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws {
        try foreignKeys.enforceIfLeftOff()
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: code, message: message, statement: sql)
        }
    }

    package func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(code: code, message: lastErrorMessage, statement: sql)
        }
        return SQLiteStatement(handle: statement, connection: self, sql: sql)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }
    /// The row id of the row this connection inserted last.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    package var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Set while `enclosingTransaction` runs: the write transactions inside it are its savepoints.
    var isEnclosed = false

    /// Runs `body` in a write transaction taken at once; commits if it returns, rolls back if it throws.
    /// Inside `enclosingTransaction`, a savepoint of it instead.
    package func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        if isEnclosed { return try savepoint(body) }
        return try bracketed(begin: "BEGIN IMMEDIATE", commit: "COMMIT", undo: "ROLLBACK", body)
    }

    /// Runs `body` with foreign keys not enforced; they are enforced again before the next
    /// statement outside such a body runs (`ForeignKeySwitch`). Outside a transaction only:
    /// SQLite ignores the switch inside one.
    package func withoutForeignKeyEnforcement<T>(_ body: () throws -> T) throws -> T {
        try foreignKeys.suspending(body)
    }

    /// Runs `body` between `begin` and `commit`; if it throws, runs `undo` unless a failed
    /// statement has already rolled the whole transaction back, and rethrows.
    func bracketed<T>(begin: String, commit: String, undo: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute(commit)
            return result
        } catch {
            if isInTransaction { try? execute(undo) }
            throw error
        }
    }

    /// The first column of the first row of a query, as an integer; `nil` for no row or NULL.
    package func scalar(_ sql: String) throws -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }
}

/// SQLite's WAL hook: after each commit, with the log's length in pages.
private func walHook(
    _ context: UnsafeMutableRawPointer?, _ database: OpaquePointer?, _: UnsafePointer<CChar>?, _ pages: Int32
) -> Int32 {
    guard let context, let database else { return SQLITE_OK }
    Unmanaged<BackgroundCheckpoint>.fromOpaque(context).takeUnretainedValue().committed(
        pages: pages, writer: database)
    return SQLITE_OK
}
