import HealthETLCollectorStorage
import HealthETLCore
import PostgresNIO

/// User and metric ids by name, read or made once per process: rows are only ever added, so a
/// cached id stays right whatever other collectors do.
actor PostgresIdentifiers {
    private var users: [String: Int64] = [:]
    private var metrics: [String: Int32] = [:]

    /// Registers the users of the tokens file (existing ones keep their ids).
    func register(users names: [String], client: PostgresClient, logger: Logger) async throws {
        for name in names {
            _ = try await client.query(
                "INSERT INTO users(name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING", logger: logger)
            for try await id in try await client.query("SELECT id FROM users WHERE name = \(name)", logger: logger)
                .decode(Int64.self)
            {
                users[name] = id
            }
        }
    }

    func user(_ name: String) throws -> Int64 {
        guard let id = users[name] else { throw CollectorError("unknown user \(name)") }
        return id
    }

    /// The ids of `names`, made for those not seen before (with the metric's canonical unit, for
    /// the views).
    func metrics(_ names: Set<String>, catalog: MetricCatalog, client: PostgresClient, logger: Logger) async throws
        -> [String: Int32]
    {
        for name in names where metrics[name] == nil {
            let unit = catalog.metric(named: name)?.definition.ucumUnit
            _ = try await client.query(
                "INSERT INTO metrics(name, unit) VALUES (\(name), \(unit)) ON CONFLICT (name) DO NOTHING",
                logger: logger)
            for try await id in try await client.query("SELECT id FROM metrics WHERE name = \(name)", logger: logger)
                .decode(Int32.self)
            {
                metrics[name] = id
            }
        }
        return metrics.filter { names.contains($0.key) }
    }

    /// The id of a metric some batch stored, `nil` when none did.
    func existingMetric(_ name: String, client: PostgresClient, logger: Logger) async throws -> Int32? {
        if let id = metrics[name] { return id }
        for try await id in try await client.query("SELECT id FROM metrics WHERE name = \(name)", logger: logger)
            .decode(Int32.self)
        {
            metrics[name] = id
            return id
        }
        return nil
    }
}
