import CSQLite

extension SQLiteConnection {
    /// SQLite's limits on a connection to a file someone else wrote. SQLite's defaults (a string
    /// of 1 GB, a statement of 1 GB, 1,000 levels of expression, 127 arguments) let a file's own
    /// SQL — a generated column, an index on an expression — build a 400 MB string per row; these
    /// are far above anything an honest file needs (the largest CREATE statement of Health
    /// Connect's schema is about 2 KB, its largest value an app icon) and bound every value any
    /// SQL of the file can compute.
    package static let untrustedLimits: [(limit: Int32, value: Int32)] = [
        (SQLITE_LIMIT_LENGTH, 16 << 20),
        (SQLITE_LIMIT_SQL_LENGTH, 100_000),
        (SQLITE_LIMIT_EXPR_DEPTH, 100),
        (SQLITE_LIMIT_FUNCTION_ARG, 8),
    ]

    /// Before the schema is first read: defensive mode (no SQL can corrupt the file or change its
    /// schema), `trusted_schema` off (the schema's views, triggers, generated columns and indexes
    /// may call only functions SQLite marks harmless, and no virtual table that is not), and the
    /// limits above.
    func hardenForUntrustedFile() throws {
        for (option, value) in [(SQLITE_DBCONFIG_DEFENSIVE, Int32(1)), (SQLITE_DBCONFIG_TRUSTED_SCHEMA, Int32(0))] {
            var state: Int32 = -1
            let code = healthetl_sqlite3_db_config_flag(handle, option, value, &state)
            guard code == SQLITE_OK, state == value else {
                throw SQLiteError(
                    code: code == SQLITE_OK ? SQLITE_ERROR : code,
                    message: "this SQLite cannot open a file defensively (option \(option))", statement: nil)
            }
        }
        for (limit, value) in Self.untrustedLimits { sqlite3_limit(handle, limit, value) }
    }

    /// Whether the connection is in SQLite's defensive mode.
    package var isDefensive: Bool {
        var state: Int32 = -1
        return healthetl_sqlite3_db_config_flag(handle, SQLITE_DBCONFIG_DEFENSIVE, -1, &state) == SQLITE_OK
            && state == 1
    }

    /// The value of one of SQLite's limits (`SQLITE_LIMIT_…`) on this connection.
    package func limit(_ limit: Int32) -> Int32 { sqlite3_limit(handle, limit, -1) }
}
