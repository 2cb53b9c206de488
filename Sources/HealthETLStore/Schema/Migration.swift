/// A named schema step. Released migrations are never edited: a change is a new migration.
struct Migration: Sendable {
    let name: String
    let sql: String
}
