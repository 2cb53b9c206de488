extension Store {
    /// Runs `body` as one transaction: the batches it commits (each a savepoint, so none is held
    /// in memory longer than its own commit) are seen by other connections all at once, or, if
    /// `body` throws, not at all.
    public func asOneTransaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try connection.enclosingTransaction(body)
        } catch {
            // Names interned by the commits inside were rolled back with them; the cache is only a cache.
            interned.removeAll()
            lastInterned = Array(repeating: nil, count: InternTable.allCases.count)
            internedInTransaction.removeAll()
            throw error
        }
    }
}
