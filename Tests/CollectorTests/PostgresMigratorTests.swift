import HealthETLTestSupport
import Logging
import PostgresNIO
import Testing

@testable import HealthETLCollectorPostgres
@testable import HealthETLServer

/// The collector's schema on a throwaway PostgreSQL cluster: applied once however many
/// collectors start together.
@Suite(.serialized) struct PostgresMigratorTests {
    @Test func threeCollectorsStartingTogetherApplyEachMigrationOnce() async throws {
        let binaries = try #require(PostgresCluster.installedBinaries(), "PostgreSQL is not installed (make deps)")
        let cluster = try PostgresCluster(binaries: binaries)
        defer { cluster.stop() }
        try cluster.createDatabase("migrate")
        let logger = Logger(label: "test")
        let configuration = PostgresClient.Configuration(
            host: "127.0.0.1", port: cluster.port, username: cluster.user, password: nil, database: "migrate",
            tls: .disable)
        let clients = (0..<3).map { _ in PostgresClient(configuration: configuration) }
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for client in clients {
                group.addTask {
                    try await PostgresRunning.with(client) {
                        try await PostgresMigrator(migrations: PostgresCollectorSchema.migrations).migrate(
                            $0, logger: logger)
                    }
                }
            }
            var all: [[String]] = []
            for try await names in group { all.append(names) }
            return all
        }
        #expect(applied.flatMap { $0 }.sorted() == PostgresCollectorSchema.migrations.map(\.name).sorted())
        #expect(applied.filter(\.isEmpty).count == 2)
    }
}
