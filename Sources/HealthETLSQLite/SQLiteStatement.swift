import CSQLite
import HealthETLCore

/// A prepared statement, reused across rows: bind, step, reset.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection
    /// The connection's, held here too: a statement may run after its connection is gone.
    private let foreignKeys: ForeignKeySwitch
    package let sql: String
    /// The per-row binds' parameters (and their copies of text, until the statement is reset).
    private var parameters: SQLiteParameters

    init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.foreignKeys = connection.foreignKeys
        self.sql = sql
        self.parameters = SQLiteParameters(handle: handle)
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// How many times SQLite prepared the statement again since it was first prepared: after a
    /// schema change or a switch such as `PRAGMA foreign_keys`.
    package var timesPreparedAgain: Int {
        Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0))
    }

    /// Binds values to `?1`, `?2`, … in order, after resetting the statement.
    package func bind(_ values: SQLiteValue...) throws {
        try bind(values)
    }

    package func bind(_ values: [SQLiteValue]) throws {
        reset()
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .text(let text): code = SQLiteParameters.bindCopied(text, at: index, of: handle)
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient)
                }
            }
            guard code == SQLITE_OK else { throw error(code) }
        }
    }

    // MARK: - Binding without allocation, for the per-row insert path

    /// Resets the statement for new bindings; parameters left unbound are NULL.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        parameters.forgetKept()
    }

    /// Resets the statement and binds its parameters again in `body`, every one of them (the
    /// binds bind NULL for `nil`) or one left unbound every time: values bound before stay bound,
    /// so one left out would repeat the last row's. Clearing them first cost as much as binding
    /// them (1.6 % of the writer's time, for the 1,280 parameters of a 64-row insert).
    package func rebind<Result>(_ body: (inout SQLiteParameters) throws -> Result) rethrows -> Result {
        sqlite3_reset(handle)
        parameters.forgetKept()
        return try body(&parameters)
    }

    // One bind at a time, after `reset`: each reaches the parameters on its own.

    package func bind(_ index: Int32, _ value: Int64) throws { try parameters.bind(index, value) }
    package func bind(_ index: Int32, _ value: Int64?) throws { try parameters.bind(index, value) }
    package func bind(_ index: Int32, _ value: Double?) throws { try parameters.bind(index, value) }
    package func bind(_ index: Int32, _ value: String?) throws { try parameters.bind(index, value) }
    package func bind(_ index: Int32, _ id: ContentID) throws { try parameters.bind(index, id) }

    /// Runs a bound statement that returns no rows; returns the rows it changed.
    package func execute() throws -> Int {
        while try step() {}
        return connection.changes
    }

    /// Advances to the next row. Returns `false` when the statement is done.
    @discardableResult
    package func step() throws -> Bool {
        try foreignKeys.enforceIfLeftOff()
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let failure = error(code)
            sqlite3_reset(handle)
            throw failure
        }
    }

    /// Reads the first row with `read`, then resets the statement; `nil` when there is none.
    ///
    /// A statement left on a row keeps its connection's read snapshot open, even after COMMIT:
    /// the connection's next write transaction then starts on a stale snapshot and fails
    /// (`SQLITE_BUSY_SNAPSHOT`) as soon as another process has written in between.
    package func firstRow<T>(_ read: (SQLiteStatement) throws -> T) throws -> T? {
        defer { sqlite3_reset(handle) }
        guard try step() else { return nil }
        return try read(self)
    }

    /// Binds, runs to completion and returns the number of rows changed.
    @discardableResult
    package func run(_ values: SQLiteValue...) throws -> Int {
        try bind(values)
        while try step() {}
        return connection.changes
    }

    package var columnCount: Int32 { sqlite3_column_count(handle) }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    /// Whether the column holds an integer or a real (not text, a blob or NULL).
    package func isNumber(_ column: Int32) -> Bool {
        let type = sqlite3_column_type(handle, column)
        return type == SQLITE_INTEGER || type == SQLITE_FLOAT
    }

    /// The column's text, all of it: read by its length, like it was bound.
    package func text(_ column: Int32) -> String? {
        textBytes(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A text column's bytes, valid until the statement steps or resets; nil for NULL.
    package func textBytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
    }

    package func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// A 16-byte blob column as a content id, without an intermediate array (the export's hot path).
    package func contentID(_ column: Int32) -> ContentID {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count >= 16, let pointer = sqlite3_column_blob(handle, column) else { return ContentID(high: 0, low: 0) }
        return ContentID(digest: UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: connection.lastErrorMessage, statement: sql)
    }
}

extension SQLiteStatement {
    /// SQLite copies bound text and blobs at once (`SQLITE_TRANSIENT`), so Swift buffers may go away.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
