/// The `serve` section of the store's `config.json`: where `healthetl serve` keeps its data when
/// not in the embedded SQLite database. Command-line options and `HEALTHETL_DATABASE_URL` win.
///
/// ```json
/// {"serve": {"database": "postgres://healthetl@db.example.org/healthetl?sslmode=verify-full", "database_pool": 20}}
/// ```
/// The file is 0600: a URL with a password in it stays private to the store's owner.
public struct ServeSettings: Codable, Equatable, Sendable {
    public var database: String?
    public var databasePool: Int?

    public init(database: String? = nil, databasePool: Int? = nil) {
        self.database = database
        self.databasePool = databasePool
    }

    private enum CodingKeys: String, CodingKey {
        case database
        case databasePool = "database_pool"
    }
}

extension ServeSettings {
    /// The pool's size when nothing sets it.
    public static let defaultPool = 20

    /// What `healthetl serve` runs with: the command line's choice, else `HEALTHETL_DATABASE_URL`
    /// for the database, else the store's `config.json` section.
    public static func resolved(
        database: String?, databasePool: Int?, store: String, environment: [String: String]
    ) throws -> ServeSettings {
        let configured = try StoreConfiguration.load(store: store).serve
        let fromEnvironment = environment["HEALTHETL_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        return ServeSettings(
            database: database ?? fromEnvironment ?? configured?.database,
            databasePool: databasePool ?? configured?.databasePool)
    }
}
