extension SQLiteConnection {
    /// Runs `body` in one write transaction that the write transactions inside it join as
    /// savepoints: many commits, each bounded in memory, that another connection sees all at once
    /// or not at all. Commits if `body` returns, rolls everything back if it throws.
    package func enclosingTransaction<T>(_ body: () throws -> T) throws -> T {
        precondition(!isEnclosed, "enclosing transactions do not nest")
        isEnclosed = true
        defer { isEnclosed = false }
        return try bracketed(begin: "BEGIN IMMEDIATE", commit: "COMMIT", undo: "ROLLBACK", body)
    }

    /// One write inside an enclosing transaction: undone alone if `body` throws.
    func savepoint<T>(_ body: () throws -> T) throws -> T {
        try bracketed(
            begin: "SAVEPOINT enclosed_write", commit: "RELEASE enclosed_write",
            undo: "ROLLBACK TO enclosed_write; RELEASE enclosed_write", body)
    }
}
