import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite

/// What the storage queue keeps between calls: interned user and metric ids, the longest
/// sample seen per user and metric, and each user's source priority.
struct StorageState {
    private var users: [String: Int64] = [:]
    private var metricIDs: [String: Int64] = [:]
    private(set) var metricNames: [Int64: String] = [:]
    private var longest: [SpanKey: Int64] = [:]
    private var priorities: [Int64: SourcePriority] = [:]

    struct SpanKey: Hashable {
        let user: Int64
        let metric: Int64
    }

    init(connection: SQLiteConnection) throws {
        let metrics = try connection.prepare("SELECT id, name FROM metrics")
        while try metrics.step() {
            let name = metrics.text(1) ?? ""
            metricIDs[name] = metrics.int64(0)
            metricNames[metrics.int64(0)] = name
        }
        let spans = try connection.prepare("SELECT user_id, metric_id, longest_ms FROM spans")
        while try spans.step() { longest[SpanKey(user: spans.int64(0), metric: spans.int64(1))] = spans.int64(2) }
        let stored = try connection.prepare("SELECT user_id, sources FROM source_priorities")
        while try stored.step() {
            priorities[stored.int64(0)] = SourcePriority(
                preferred: ProjectionPlan.decodeSources(stored.text(1)))
        }
    }

    mutating func registerUser(_ name: String, connection: SQLiteConnection) throws {
        try connection.prepare("INSERT INTO users(name) VALUES (?1) ON CONFLICT(name) DO NOTHING").run(.text(name))
        let lookup = try connection.prepare("SELECT id FROM users WHERE name = ?1")
        try lookup.bind(.text(name))
        guard let id = try lookup.firstRow({ $0.int64(0) }) else {
            throw CollectorError("user \(name) could not be registered")
        }
        users[name] = id
        try SQLiteChangeFeed.register(user: id, connection: connection)
    }

    /// Only users from the tokens file exist; anyone else was refused before reaching storage.
    func userID(_ name: String) throws -> Int64 {
        guard let id = users[name] else { throw CollectorError("unknown user") }
        return id
    }

    func existingMetricID(_ name: String) -> Int64? { metricIDs[name] }

    mutating func metricID(_ name: String, connection: SQLiteConnection) throws -> Int64 {
        if let id = metricIDs[name] { return id }
        try connection.prepare("INSERT INTO metrics(name) VALUES (?1)").run(.text(name))
        let id = try connection.scalar("SELECT last_insert_rowid()") ?? 0
        metricIDs[name] = id
        metricNames[id] = name
        return id
    }

    /// The order `user`'s projections rank sources by: the default one until the user sets theirs.
    func priority(user: Int64) -> SourcePriority { priorities[user] ?? SourcePriority() }

    /// Keeps `user`'s new priority (the caller stores it in the same transaction).
    mutating func setPriority(_ priority: SourcePriority, user: Int64) { priorities[user] = priority }

    func longestSample(user: Int64, metric: Int64) -> Int64 { longest[SpanKey(user: user, metric: metric)] ?? 0 }

    /// Records a sample's length when it is the longest yet.
    mutating func noteSpan(_ milliseconds: Int64, user: Int64, metric: Int64, connection: SQLiteConnection) throws {
        let key = SpanKey(user: user, metric: metric)
        guard milliseconds > longest[key] ?? -1 else { return }
        longest[key] = milliseconds
        try connection.prepare(
            """
            INSERT INTO spans(user_id, metric_id, longest_ms) VALUES (?1, ?2, ?3)
            ON CONFLICT(user_id, metric_id) DO UPDATE SET longest_ms = max(longest_ms, excluded.longest_ms)
            """
        ).run(.integer(user), .integer(metric), .integer(milliseconds))
    }

    /// A batch this user stored before under `id`.
    func storedBatch(user: Int64, id: String, connection: SQLiteConnection) throws -> (
        digest: [UInt8], response: [UInt8]
    )? {
        let statement = try connection.prepare(
            "SELECT body_sha256, response FROM batches WHERE user_id = ?1 AND batch_id = ?2")
        try statement.bind(.integer(user), .text(id))
        return try statement.firstRow { ($0.blob(0), $0.blob(1)) }
    }
}
