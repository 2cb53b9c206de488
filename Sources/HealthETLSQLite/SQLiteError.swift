import CSQLite

/// A failed SQLite call, with SQLite's own code and message and the statement it ran.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var statement: String?

    package init(code: Int32, message: String, statement: String?) {
        self.code = code
        self.message = message
        self.statement = statement
    }

    /// A broken expectation of the caller's own about the database (SQLite's `SQLITE_INTERNAL`).
    public static func inconsistency(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_INTERNAL, message: message, statement: nil)
    }

    /// The SQLite library this process runs against, for `--version` and bug reports.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    public var isDiskFull: Bool { code & 0xFF == SQLITE_FULL }
    public var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
    /// The file is not a database, or its pages are malformed.
    public var isDamage: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }

    public var description: String {
        if isDiskFull {
            return "the disk holding the store is full (\(message)); nothing of the failed batch was"
                + " written. Free some space and run the command again: it resumes where it stopped."
        }
        if isBusy {
            return "the store is locked by another healthetl process (\(message)); wait for it to"
                + " finish and try again."
        }
        return "SQLite error \(code): \(message)" + (statement.map { " in `\($0)`" } ?? "")
    }
}
