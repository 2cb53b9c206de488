import Foundation
import HealthETLCore
import HealthETLTestSupport
import Logging
import PostgresNIO
import Testing

@testable import HealthETLCollectorPostgres
@testable import HealthETLServer

/// The Grafana example in Docs/grafana reads only what the schema has: every panel's SQL (and the
/// person variable's) runs against a collector's database with a little data, Grafana's macros
/// expanded as Grafana expands them, and each finds rows.
@Suite(.serialized) struct GrafanaDashboardTests {
    static let batch = WireFixtures.batch(
        "grafana",
        [
            WireFixtures.sample(
                "step_count", source: "Watch", start: "2026-01-05T10:00:00Z", end: "2026-01-05T10:10:00Z", value: 600),
            WireFixtures.sample(
                "heart_rate", source: "Watch", start: "2026-01-05T10:00:00Z", end: "2026-01-05T10:00:00Z", value: 62),
            WireFixtures.sample(
                "sleep_analysis", source: "Watch", start: "2026-01-05T01:00:00Z", end: "2026-01-05T02:30:00Z",
                category: "asleep_core"),
            WireFixtures.sample(
                "body_mass", source: "Scale", start: "2026-01-05T07:00:00Z", end: "2026-01-05T07:00:00Z", value: 71.5),
        ])

    /// Grafana's `$__timeFilter(column)` over 2026, and the dashboard's `$user`.
    static func expand(_ sql: String) -> String {
        var text = sql.replacingOccurrences(of: "$user", with: "alice")
        while let macro = text.range(of: "$__timeFilter(") {
            let close = text[macro.upperBound...].firstIndex(of: ")")!
            let column = text[macro.upperBound..<close]
            text.replaceSubrange(
                macro.lowerBound...close,
                with: "\(column) BETWEEN '2026-01-01T00:00:00Z' AND '2026-12-31T23:59:59Z'")
        }
        return text
    }

    @Test func everyPanelsQueryRunsAndFindsRows() async throws {
        let path = TestPaths.repository("Docs/grafana/dashboards/healthetl-overview.json")
        let dashboard = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        let variables = (dashboard["templating"] as? [String: Any])?["list"] as? [[String: Any]] ?? []
        let queries =
            panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["rawSql"] as? String } }
            + variables.compactMap { $0["query"] as? String }
        #expect(queries.count == 5)
        // The operations dashboard reads Prometheus, and the views for one panel.
        let operations = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    contentsOf: URL(
                        fileURLWithPath: TestPaths.repository("Docs/grafana/dashboards/healthetl-operations.json"))))
                as? [String: Any])
        let operationsQueries = (operations["panels"] as? [[String: Any]] ?? []).flatMap {
            ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["rawSql"] as? String }
        }
        #expect(operationsQueries.count == 1)
        let catalog = try MetricCatalog.bundled()
        let (cluster, database) = try SharedPostgresCluster.newDatabase()
        let client = PostgresClient(
            configuration: .init(
                host: "127.0.0.1", port: cluster.port, username: cluster.user, password: nil, database: database,
                tls: .disable))
        let logger = Logger(label: "test")
        try await PostgresRunning.with(client) { client in
            let storage = PostgresCollectorStorage(client: client, catalog: catalog, logger: logger)
            try await storage.prepare(users: ["alice"])
            _ = try await storage.apply(
                BatchValidator(catalog: catalog).validate(Self.batch), user: "alice",
                bodyDigest: Self.batch.canonicalDigest())
            while try await storage.refreshProjections(limit: 1_000) > 0 {}
            for query in queries + operationsQueries {
                let rows = try await client.query(PostgresQuery(unsafeSQL: Self.expand(query)), logger: logger)
                    .collect()
                #expect(!rows.isEmpty, "no rows: \(query)")
            }
            let units = try await client.query(
                "SELECT unit FROM metrics WHERE name = 'body_mass'", logger: logger
            ).collect()
            #expect(try units.first?.decode(String?.self) == "kg")
        }
    }
}
