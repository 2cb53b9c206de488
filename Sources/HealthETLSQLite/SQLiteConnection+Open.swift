import CSQLite

extension SQLiteConnection {
    /// Opens (creating if needed) the database in `directory`, private to this user: applies the
    /// profile, refuses a file that is not a SQLite database or whose schema cannot be read, and
    /// runs the migrations it has not seen yet; after a migration, every page is checked too.
    /// `upgrading` is told the migrations about to run on a database made by an earlier version.
    ///
    /// Only the schema is read on every open: a full check reads the whole file, seconds for a
    /// multi-gigabyte store on every command. `requireSound` is there for the checks that want it.
    package static func open(
        in directory: DatabaseDirectory, profile: SQLiteProfile, migrations: [Migration], nowMilliseconds: Int64,
        upgrading: ([String]) -> Void = { _ in }
    ) throws -> SQLiteConnection {
        try directory.prepare()
        let path = directory.databasePath
        let connection: SQLiteConnection
        var ran: [String] = []
        do {
            // One process at a time sets the database up; a second waits, then finds it set up.
            connection = try directory.whileOpening {
                let connection = try SQLiteConnection(path: path)
                try profile.apply(to: connection)
                _ = try connection.scalar("SELECT count(*) FROM sqlite_schema")
                ran = try Migrator(migrations: migrations).migrate(
                    connection, nowMilliseconds: nowMilliseconds, upgrading: upgrading)
                if !ran.isEmpty { try connection.requireSound(path: path) }
                return connection
            }
        } catch let error as SQLiteError {
            throw error.isDamage
                ? DatabaseError.damaged(path: path, finding: error.message)
                : DatabaseError.cannotOpen(path: path, reason: error.description)
        }
        // WAL and shared-memory files now exist: they must have inherited the database's mode.
        try directory.prepare()
        connection.checkpointInBackground(path: path)
        return connection
    }

    /// SQLite's `quick_check`: every page and index entry is well formed. It reads the whole file.
    package func requireSound(path: String) throws {
        let findings = try integrityFindings(thorough: false, limit: 5)
        guard findings == ["ok"] else {
            throw DatabaseError.damaged(path: path, finding: findings.joined(separator: "; "))
        }
    }

    /// What SQLite's own check finds, `["ok"]` for a sound database: `quick_check`, or with
    /// `thorough` the slower `integrity_check`, which also compares every index with its table.
    /// With `table`, only that table and its indexes (up to 100 findings): SQLite reads a name
    /// that starts like a number as the limit instead, so such a name is the caller's to avoid.
    package func integrityFindings(thorough: Bool, limit: Int = 100, table: String? = nil) throws -> [String] {
        let argument = table.map { "'" + String($0.flatMap { $0 == "'" ? ["'", "'"] : [$0] }) + "'" } ?? String(limit)
        let check = try prepare("PRAGMA \(thorough ? "integrity_check" : "quick_check")(\(argument))")
        var findings: [String] = []
        while try check.step() { findings.append(check.text(0) ?? "") }
        return findings
    }
}
