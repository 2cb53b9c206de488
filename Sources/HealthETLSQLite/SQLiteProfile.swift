/// The one set of PRAGMAs every healthetl database runs with; only the page cache's size differs
/// between the client store and the collector.
package struct SQLiteProfile: Sendable {
    /// The page cache, in MiB. The client's 16 MiB holds the identity index's hot pages during
    /// imports; the rest of that index is in the kernel's page cache, a copy away (32 MiB and 64
    /// MiB were no faster, and 32 MiB put a 16-million-record import over 100 MB of RSS).
    package var cacheMebibytes: Int

    package static let store = SQLiteProfile(cacheMebibytes: 16)
    package static let collector = SQLiteProfile(cacheMebibytes: 64)

    /// The busy timeout comes first: switching to WAL takes a lock another process may hold.
    /// 16 KiB pages (set before the first table exists; an older database keeps its own) halve
    /// the WAL's write calls and the b-tree's page splits against 4 KiB: an import measured 7 %
    /// faster.
    func apply(to connection: SQLiteConnection) throws {
        try connection.execute(
            """
            PRAGMA busy_timeout = 5000;
            PRAGMA page_size = 16384;
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA foreign_keys = ON;
            PRAGMA temp_store = MEMORY;
            PRAGMA cache_size = -\(cacheMebibytes * 1024);
            """)
    }
}
