/// Applies the migrations a store has not seen yet, each in its own transaction, in order.
package struct Migrator {
    package let migrations: [Migration]

    package init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// - Parameter upgrading: told the names about to be applied to a database that already had
    ///   some applied (an upgrade, which may copy every row), before the first one runs.
    /// - Returns: the names applied by this call.
    @discardableResult
    package func migrate(
        _ connection: SQLiteConnection, nowMilliseconds: Int64, upgrading: ([String]) -> Void = { _ in }
    ) throws -> [String] {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations(
                name TEXT PRIMARY KEY NOT NULL,
                applied_ms INTEGER NOT NULL
            ) WITHOUT ROWID
            """)
        let applied = try Set(appliedNames(connection))
        let known = Set(migrations.map(\.name))
        if let unknown = applied.subtracting(known).sorted().first {
            throw DatabaseError.newerSchema(migration: unknown)
        }
        let pending = migrations.filter { !applied.contains($0.name) }
        if !applied.isEmpty, !pending.isEmpty { upgrading(pending.map(\.name)) }
        var ran: [String] = []
        for migration in pending {
            // Checked again under the write lock: another process opening the same new database
            // (an import and a `status` started together) may have applied it meanwhile.
            let appliedNow = try connection.writeTransaction {
                guard try !appliedNames(connection).contains(migration.name) else { return false }
                try migration.apply(connection)
                try connection.prepare("INSERT INTO schema_migrations(name, applied_ms) VALUES (?1, ?2)")
                    .run(.text(migration.name), .integer(nowMilliseconds))
                return true
            }
            if appliedNow { ran.append(migration.name) }
        }
        return ran
    }

    package func appliedNames(_ connection: SQLiteConnection) throws -> [String] {
        let statement = try connection.prepare("SELECT name FROM schema_migrations ORDER BY name")
        var names: [String] = []
        while try statement.step() { names.append(statement.text(0) ?? "") }
        return names
    }
}
