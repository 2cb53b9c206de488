/// A named schema step. Released migrations are never edited: a change is a new migration.
package struct Migration: Sendable {
    package let name: String
    /// Runs inside the migration's transaction.
    package let apply: @Sendable (SQLiteConnection) throws -> Void

    package init(name: String, sql: String) {
        self.name = name
        self.apply = { try $0.execute(sql) }
    }

    /// A step that needs to read the store before it writes.
    package init(name: String, apply: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        self.name = name
        self.apply = apply
    }
}
