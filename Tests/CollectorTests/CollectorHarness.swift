import CollectorSink
import Foundation
import HTTPTypes
import HealthETLCollectorPostgres
import HealthETLCollectorSQLite
import HealthETLCore
import HealthETLServer
import HealthETLTestSupport
import HealthETLWire
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO

/// A real collector on a loopback port, with two users, over a fresh SQLite data directory.
struct CollectorHarness {
    static let alice = "alice-token-0123456789abcdef"
    static let bob = "bob-token-0123456789abcdef01"

    let directory = TemporaryDirectory("collector")
    let catalog = try! MetricCatalog.bundled()

    var tokensPath: String { directory.child("tokens") }

    init() throws {
        let tokens = "# test users\nalice \(Self.alice)\nbob \(Self.bob)\n"
        _ = FileManager.default.createFile(
            atPath: tokensPath, contents: Data(tokens.utf8), attributes: [.posixPermissions: 0o600])
    }

    /// The PostgreSQL database of this harness, made on its first run there (later runs, like a
    /// restart, find the data the earlier ones left).
    private let postgresDatabase = PostgresDatabaseName()

    /// Runs `body` against a live server over `backend`; `maximumDecodedBytes` lowers the zstd
    /// limit for bomb tests.
    func run<T: Sendable>(
        on backend: CollectorBackend = .sqlite, maximumBodyBytes: Int = 32 << 20, maximumDecodedBytes: Int = 128 << 20,
        idleTimeoutSeconds: Double = 15, maximumConnections: Int? = nil,
        adjust: @Sendable (inout CollectorConfiguration) -> Void = { _ in },
        _ body: @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        var configuration = CollectorConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.child("data"), tokensPath: tokensPath,
            maximumBodyBytes: maximumBodyBytes, maximumDecodedBytes: maximumDecodedBytes)
        configuration.idleTimeoutSeconds = idleTimeoutSeconds
        if let maximumConnections { configuration.maximumConnections = maximumConnections }
        adjust(&configuration)
        var logger = Logger(label: "collector-test")
        logger.logLevel = .warning
        switch backend {
        case .sqlite:
            let storage = try SQLiteCollectorStorage(
                directory: configuration.dataDirectory, users: ["alice", "bob"], catalog: catalog)
            let app = try Collector.application(
                configuration: configuration, storage: storage, tokensPath: tokensPath, catalog: catalog,
                logger: logger)
            return try await app.test(.live, body)
        case .postgres:
            let (cluster, database) = try postgresDatabase.get()
            let client = PostgresClient(
                configuration: .init(
                    host: "127.0.0.1", port: cluster.port, username: cluster.user, password: nil, database: database,
                    tls: .disable))
            let (catalog, tokensPath, configuration, logger) = (self.catalog, self.tokensPath, configuration, logger)
            return try await PostgresRunning.with(client) { client in
                let storage = PostgresCollectorStorage(client: client, catalog: catalog, logger: logger)
                try await storage.prepare(users: ["alice", "bob"])
                let app = try Collector.application(
                    configuration: configuration, storage: storage, tokensPath: tokensPath, catalog: catalog,
                    logger: logger)
                return try await app.test(.live, body)
            }
        }
    }
}

/// A harness's database name, made once.
final class PostgresDatabaseName: @unchecked Sendable {
    private var made: (PostgresCluster, String)?

    func get() throws -> (PostgresCluster, String) {
        if let made { return made }
        let made = try SharedPostgresCluster.newDatabase()
        self.made = made
        return made
    }
}

/// Runs a body while a `PostgresClient` runs.
enum PostgresRunning {
    static func with<T: Sendable>(_ client: PostgresClient, _ body: @Sendable (PostgresClient) async throws -> T)
        async throws -> T
    {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }
}

/// Requests the tests make, and what they read back.
extension TestClientProtocol {
    func post(
        _ body: [UInt8], key: String?, token: String? = CollectorHarness.alice, zstd: Bool = false,
        contentType: String = "application/json"
    ) async throws -> TestResponse {
        var headers = BatchHeaders.make(key: key, token: token)
        headers[.contentType] = contentType
        if zstd { headers[.contentEncoding] = "zstd" }
        return try await execute(
            uri: "/v1/batches", method: .post, headers: headers,
            body: ByteBuffer(bytes: zstd ? try ZstdFrame.compress(body, level: 3) : body))
    }

    func post(_ batch: WireBatch, token: String = CollectorHarness.alice, zstd: Bool = false) async throws
        -> TestResponse
    {
        try await post(Array(try JSONEncoder().encode(batch)), key: batch.batchID, token: token, zstd: zstd)
    }

    func get(_ uri: String, token: String? = CollectorHarness.alice) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: .get, headers: headers)
    }

    /// `PUT /v1/settings/source-priority` with `body` as sent.
    func putPriority(
        _ body: [UInt8], token: String? = CollectorHarness.alice, contentType: String = "application/json"
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: contentType]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(
            uri: "/v1/settings/source-priority", method: .put, headers: headers, body: ByteBuffer(bytes: body))
    }

    func putPriority(_ sources: [String], token: String = CollectorHarness.alice) async throws -> TestResponse {
        try await putPriority(Array(try JSONEncoder().encode(WireSourcePriority(sources: sources))), token: token)
    }

    /// The caller's source priority as `GET /v1/settings/source-priority` answers it.
    func priority(token: String = CollectorHarness.alice) async throws -> [String] {
        let response = try await get("/v1/settings/source-priority", token: token)
        return try JSONDecoder().decode(WireSourcePriority.self, from: Data(buffer: response.body)).sources
    }

    func daily(_ metric: String, _ from: String, _ to: String, token: String = CollectorHarness.alice) async throws
        -> [WireDailyRollup]
    {
        let response = try await get("/v1/projections/daily?metric=\(metric)&from=\(from)&to=\(to)", token: token)
        return try JSONDecoder().decode(DailyBody.self, from: Data(buffer: response.body)).days
    }

    func sleep(_ from: String, _ to: String, token: String = CollectorHarness.alice) async throws -> [WireSleepNight] {
        let response = try await get("/v1/projections/sleep?from=\(from)&to=\(to)", token: token)
        return try JSONDecoder().decode(SleepBody.self, from: Data(buffer: response.body)).nights
    }
}

/// The headers of a batch upload.
enum BatchHeaders {
    static func make(key: String?, token: String? = CollectorHarness.alice) -> HTTPFields {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return headers
    }
}

struct DailyBody: Decodable { let days: [WireDailyRollup] }
struct SleepBody: Decodable { let nights: [WireSleepNight] }

extension TestResponse {
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]) ?? [:] }
    var errorCode: String? { json["error"] as? String }
    var batchResponse: WireBatchResponse? {
        try? JSONDecoder().decode(WireBatchResponse.self, from: Data(buffer: body))
    }
}

/// Samples for fixtures: an id made from the content, canonical units, UTC instants.
enum WireFixtures {
    static func sample(
        _ metric: String, source: String, start: String, end: String, value: Double? = nil, category: String? = nil,
        offset: Int? = nil, timeZone: String? = nil, device: String? = nil
    ) -> WireSample {
        let startInstant = TimestampParser.parse(start)!.instant
        let endInstant = TimestampParser.parse(end)!.instant
        let id = ContentID(
            metric: metric, source: source, start: startInstant, end: endInstant,
            value: value.map { "\($0)" } ?? category,
            unit: nil)
        return WireSample(
            id: id.description, metric: metric, source: source, device: device, start: start, end: end,
            utcOffsetSeconds: offset, timeZone: timeZone, value: value, category: category)
    }

    static func batch(_ id: String, _ samples: [WireSample], deletions: [WireDeletion] = []) -> WireBatch {
        WireBatch(batchID: id, samples: samples, deletions: deletions)
    }
}
