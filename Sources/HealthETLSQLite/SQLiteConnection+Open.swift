import CSQLite

extension SQLiteConnection {
    /// Opens (creating if needed) the database in `directory`, private to this user: applies the
    /// profile, refuses a file that is not a sound SQLite database, and runs the migrations it has
    /// not seen yet.
    package static func open(
        in directory: DatabaseDirectory, profile: SQLiteProfile, migrations: [Migration], nowMilliseconds: Int64
    ) throws -> SQLiteConnection {
        try directory.prepare()
        let path = directory.databasePath
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path)
            try profile.apply(to: connection)
            try connection.requireSound(path: path)
        } catch let error as SQLiteError {
            throw error.isDamage
                ? DatabaseError.damaged(path: path, finding: error.message)
                : DatabaseError.cannotOpen(path: path, reason: error.description)
        }
        try Migrator(migrations: migrations).migrate(connection, nowMilliseconds: nowMilliseconds)
        // WAL and shared-memory files now exist: they must have inherited the database's mode.
        try directory.prepare()
        return connection
    }

    /// SQLite's `quick_check`: every page and index entry is well formed. It reads the whole file
    /// once, which on a 130 MB store takes well under a second.
    package func requireSound(path: String) throws {
        let check = try prepare("PRAGMA quick_check(5)")
        var findings: [String] = []
        while try check.step() { findings.append(check.text(0) ?? "") }
        guard findings == ["ok"] else {
            throw DatabaseError.damaged(path: path, finding: findings.joined(separator: "; "))
        }
    }
}
