import CollectorSink
import Foundation
import HealthETLCollectorSQLite
import HealthETLCore
import HealthETLServer
import HealthETLTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// The real collector on a loopback port (port 0), over a fresh SQLite directory, and a sink
/// pointed at it.
struct LiveCollector {
    static let alice = "alice-token-0123456789abcdef"
    static let bob = "bob-token-0123456789abcdef01"

    let directory = TemporaryDirectory("collector-sink")
    let catalog: MetricCatalog

    var tokensPath: String { directory.child("tokens") }

    init() throws {
        catalog = try MetricCatalog.bundled()
        let tokens = "alice \(Self.alice)\nbob \(Self.bob)\n"
        _ = FileManager.default.createFile(
            atPath: tokensPath, contents: Data(tokens.utf8), attributes: [.posixPermissions: 0o600])
    }

    /// Runs `body` with a sink that uses `token`, while the collector serves.
    func run(token: String = alice, _ body: @escaping @Sendable (CollectorSink) async throws -> Void)
        async throws
    {
        let configuration = CollectorConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.child("data"), tokensPath: tokensPath)
        let storage = try SQLiteCollectorStorage(
            directory: configuration.dataDirectory, users: ["alice", "bob"], catalog: catalog)
        let app = try Collector.application(
            configuration: configuration, storage: storage, tokensPath: tokensPath, catalog: catalog,
            logger: SinkFixtures.quiet)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let sinkConfiguration = try CollectorSinkConfiguration(
                endpoint: "http://127.0.0.1:\(port)", token: try CollectorToken(token),
                requestTimeout: .seconds(10))
            try await SinkFixtures.withSink(sinkConfiguration) { sink in try await body(sink) }
        }
    }
}
