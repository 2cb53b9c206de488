import HealthETLCore
import HealthETLSQLite

/// The local SQLite store. One connection, confined to the thread or actor that owns the store.
///
/// The only way to write samples is `commit(_:)`: a batch and its cursor advances in one
/// transaction, so a crash at any instant leaves the whole batch or none of it.
public final class Store {
    public let directory: StoreDirectory
    let connection: SQLiteConnection
    /// The clock's wall time, for commit and queue times.
    let now: @Sendable () -> Instant
    var statements: [String: SQLiteStatement] = [:]
    var literalStatements: [Int: SQLiteStatement] = [:]
    /// The inserts of samples, by how many each inserts (`sampleInsert`).
    var sampleInserts: [Int: SQLiteStatement] = [:]
    /// Keyed by bytes: a name spelled two ways (`é`, `e\u{301}`) has two entries with one id.
    var interned: [InternTable: [ExactText: Int64]] = [:]
    /// Names interned by the open transaction: forgotten if it rolls back.
    var internedInTransaction: [(InternTable, ExactText)] = []
    /// The last name interned per table (indexed by `InternTable.slot`).
    var lastInterned: [(name: String, id: Int64)?] = Array(repeating: nil, count: InternTable.allCases.count)
    /// Test seam: called at each `CommitStage`; throwing there aborts the commit.
    package var faultInjection: (@Sendable (CommitStage) throws -> Void)?

    /// Opens (creating if needed) the store in `directory`, private to this user, fully migrated.
    /// - Parameter clock: for commit and queue times; injected so tests are exact.
    public init(directory: StoreDirectory, clock: Clock = .system) throws {
        self.directory = directory
        self.now = clock.now
        connection = try SQLiteConnection.open(
            in: directory, profile: .store, migrations: StoreSchema.migrations,
            nowMilliseconds: now().millisecondsSinceEpoch)
    }

    /// Names of the migrations applied to this store, in order.
    public func appliedMigrations() throws -> [String] {
        try Migrator(migrations: StoreSchema.migrations).appliedNames(connection)
    }

    // MARK: - Cursors

    /// Every cursor of every stream, by stream name then lane.
    public func cursors() throws -> [StreamCursor] {
        let statement = try prepared(
            """
            SELECT s.name, c.lane, c.position FROM cursors c JOIN streams s ON s.id = c.stream_id
            ORDER BY s.name, c.lane
            """)
        try statement.bind([])
        var cursors: [StreamCursor] = []
        while try statement.step() {
            guard let lane = Lane(code: Int(statement.int64(1))) else { continue }
            cursors.append(StreamCursor(stream: statement.text(0) ?? "", lane: lane, position: statement.int64(2)))
        }
        return cursors
    }

    /// The committed position of one lane of one stream, or `nil` if it never committed.
    public func cursor(stream: String, lane: Lane) throws -> Int64? {
        try cursors().first { $0.stream == stream && $0.lane == lane }?.position
    }

    // MARK: - Plumbing

    /// The prepared statement for SQL built at run time, prepared once.
    func cached(_ sql: String) throws -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try connection.prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// The prepared statement for a literal, prepared once and found by the literal's address:
    /// the per-row statements would otherwise hash their whole SQL text on every row.
    func prepared(_ sql: StaticString) throws -> SQLiteStatement {
        let key = Int(bitPattern: sql.utf8Start)
        if let statement = literalStatements[key] { return statement }
        let statement = try connection.prepare(sql.description)
        literalStatements[key] = statement
        return statement
    }

    /// The row id for a name, `last`'s when the name is the same. A sample's names nearly always
    /// repeat the last sample's, and comparing with a name held by the caller, not by this
    /// class, costs no retain and release of it (three names a sample).
    func intern(_ table: InternTable, _ name: String, after last: inout InternedName) throws -> Int64 {
        if let id = last.id, ExactText.sameBytes(last.name, name) { return id }
        let id = try intern(table, name)
        last = InternedName(name: name, id: id)
        return id
    }

    /// The row id for a name in a lookup table, inserting it the first time.
    func intern(_ table: InternTable, _ name: String) throws -> Int64 {
        // Consecutive samples nearly always repeat the last name. Bytes, not `String`'s `==`
        // and hash, which normalize non-ASCII names (`Simon’s Apple Watch`) first.
        if let last = lastInterned[table.slot], ExactText.sameBytes(last.name, name) { return last.id }
        let key = ExactText(name)
        if let id = interned[table]?[key] {
            lastInterned[table.slot] = (name, id)
            return id
        }
        // Stored in one form, so both spellings of a name find the one row (SQLite compares bytes).
        let stored = CanonicalText.of(name)
        let insert = try cached("INSERT INTO \(table.rawValue)(\(table.column)) VALUES (?1) ON CONFLICT DO NOTHING")
        try insert.run(.text(stored))
        let select = try cached("SELECT id FROM \(table.rawValue) WHERE \(table.column) = ?1")
        try select.bind(.text(stored))
        guard let id = try select.firstRow({ $0.int64(0) }) else {
            throw SQLiteError.inconsistency("interned \(table.rawValue) row vanished")
        }
        interned[table, default: [:]][key] = id
        if connection.isInTransaction { internedInTransaction.append((table, key)) }
        return id
    }
}

/// The lookup tables that intern repeated strings.
enum InternTable: String, CaseIterable {
    case metrics, sources, devices, streams

    var slot: Int {
        switch self {
        case .metrics: return 0
        case .sources: return 1
        case .devices: return 2
        case .streams: return 3
        }
    }

    var column: String { self == .devices ? "description" : "name" }
}
