import CSQLite

/// Whether a connection's foreign keys are enforced, shared by the connection and its statements
/// (which may outlive it), so that every statement can switch them back on before it runs.
///
/// `suspending` switches them off for its body and leaves them off after it: each switch makes
/// SQLite prepare every statement again on its next use (0.35 ms for a statement of 64 samples),
/// and an import's commits follow one another, 192 of them for 250,000 records. The first
/// statement that runs outside such a body switches them on again.
final class ForeignKeySwitch {
    /// The connection's database; nil once it is closed.
    var database: OpaquePointer?
    /// Whether they are off with no body running: to be switched on before the next statement.
    private var leftOff = false
    /// How many `suspending` bodies are running.
    private var suspensions = 0

    init(database: OpaquePointer) {
        self.database = database
    }

    /// Runs `body` with foreign keys not enforced. Outside a transaction only: SQLite ignores the
    /// switch inside one.
    func suspending<T>(_ body: () throws -> T) throws -> T {
        if suspensions == 0, !leftOff { try run("PRAGMA foreign_keys = OFF") }
        leftOff = false
        suspensions += 1
        defer {
            suspensions -= 1
            if suspensions == 0 { leftOff = true }
        }
        return try body()
    }

    /// Before any statement runs: foreign keys are enforced unless a body suspending them runs.
    func enforceIfLeftOff() throws {
        guard leftOff else { return }
        try run("PRAGMA foreign_keys = ON")
        leftOff = false
    }

    private func run(_ sql: String) throws {
        guard let database else { return }
        let code = sqlite3_exec(database, sql, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(database)), statement: sql)
        }
    }
}
