import HTTPTypes
import HealthETLCollectorPostgres
import HealthETLCollectorSQLite
import HealthETLCollectorStorage
import HealthETLCore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import PostgresNIO

/// `healthetl serve`: the collector's HTTP application — routes, authentication, access log,
/// background projection refresh — over a `CollectorStorage`.
public enum Collector {
    /// Opens the embedded SQLite storage in the data directory and serves until SIGINT or SIGTERM,
    /// finishing in-flight requests first.
    public static func run(
        configuration: CollectorConfiguration, catalog: MetricCatalog, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void
    ) async throws {
        let tokens = try TokenFile(path: configuration.tokensPath)
        let authenticator = Authenticator(tokens)
        if let url = configuration.databaseURL {
            return try await runOnPostgres(
                url: try PostgresURL(url, connections: configuration.databaseConnections),
                configuration: configuration, authenticator: authenticator, catalog: catalog, logger: logger,
                onListening: onListening)
        }
        let storage = try SQLiteCollectorStorage(
            directory: configuration.dataDirectory, users: authenticator.users, catalog: catalog,
            clock: configuration.clock
        ) { migrations in
            logger.notice(
                "upgrading the database (\(migrations.joined(separator: ", "))): a large one takes a while (Docs/collector.md gives each upgrade's cost), then every page is checked; a stopped upgrade is rolled back and runs again at the next start",
                metadata: ["data_dir": "\(configuration.dataDirectory)"])
        }
        let metrics = configuration.operations.metrics()
        let app = application(
            configuration: configuration, storage: storage, authenticator: authenticator, catalog: catalog,
            metrics: metrics, logger: logger, onListening: onListening)
        try await HTTPServer.run(app, metrics: metrics, operations: configuration.operations, logger: logger)
    }

    /// Serves over PostgreSQL: the pool runs beside the server, the schema is migrated (once,
    /// however many collectors start together) and the users registered before the first request.
    private static func runOnPostgres(
        url: PostgresURL, configuration: CollectorConfiguration, authenticator: Authenticator, catalog: MetricCatalog,
        logger: Logger, onListening: @escaping @Sendable (Int) async -> Void
    ) async throws {
        let client = PostgresClient(configuration: url.configuration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let storage = PostgresCollectorStorage(
                client: client, catalog: catalog, clock: configuration.clock, logger: logger)
            do {
                try await storage.prepare(users: authenticator.users)
            } catch {
                throw CollectorError(
                    "cannot use the database \(url.redacted): \(String(reflecting: error)); check the URL, that the server runs and that the role may create tables"
                )
            }
            let metrics = configuration.operations.metrics()
            let app = application(
                configuration: configuration, storage: storage, authenticator: authenticator, catalog: catalog,
                metrics: metrics, logger: logger, onListening: onListening)
            try await HTTPServer.run(app, metrics: metrics, operations: configuration.operations, logger: logger)
        }
    }

    /// Where the configured collector keeps its data, as its start-up line says it: the
    /// PostgreSQL URL without its password, or the data directory.
    public static func dataPlace(_ configuration: CollectorConfiguration) throws -> String {
        try configuration.databaseURL.map { try PostgresURL($0, connections: 1).redacted }
            ?? configuration.dataDirectory
    }

    /// The application over any storage (tests run it live on a loopback port).
    public static func application(
        configuration: CollectorConfiguration, storage: any CollectorStorage, tokensPath: String,
        catalog: MetricCatalog, metrics: ServerMetrics? = nil,
        logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        application(
            configuration: configuration, storage: storage,
            authenticator: Authenticator(try TokenFile(path: tokensPath)),
            catalog: catalog, metrics: metrics, logger: logger, onListening: onListening)
    }

    /// Every path the API serves, with its methods (the registrations below must match).
    static let routes: [String: [HTTPRequest.Method]] = [
        "/v1/healthz": [.get],
        "/v1/batches": [.post],
        "/v1/projections/daily": [.get],
        "/v1/projections/sleep": [.get],
        "/v1/projections/insights": [.get],
        "/v1/projections/extent": [.get],
        "/v1/changes": [.get],
        "/v1/changes/stream": [.get],
        "/v1/settings/source-priority": [.get, .put],
    ]

    static func application(
        configuration: CollectorConfiguration, storage: any CollectorStorage, authenticator: Authenticator,
        catalog: MetricCatalog, metrics: ServerMetrics?,
        logger: Logger, onListening: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let router = Router(context: CollectorContext.self)
        var routes = Self.routes
        if configuration.mcp != nil { routes["/mcp"] = [.post] }
        router.add(
            middleware: RequestTelemetryMiddleware(
                routes: Set(routes.keys), logger: logger, metrics: metrics, clock: configuration.clock))
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: MethodNotAllowedMiddleware(routes: routes))
        // No token needed; one that is sent must be known (`healthetl doctor` checks its token so).
        router.get("/v1/healthz") { request, _ in
            if let authorization = request.headers[.authorization],
                authenticator.user(authorization: authorization) == nil
            {
                throw APIError.unauthorized()
            }
            return JSONResponse.make(["status": "ok"])
        }

        let activity = IngestActivity()
        let hub = ChangeHub(
            maximumPerUser: configuration.maximumStreamsPerUser, writeTimeout: configuration.streamWriteTimeout,
            streamsOpen: metrics?.streamsOpen)
        let batches = BatchHandler(
            storage: storage, validator: BatchValidator(catalog: catalog), activity: activity, hub: hub,
            metrics: metrics,
            maximumBodyBytes: configuration.maximumBodyBytes,
            maximumDecodedBytes: configuration.maximumDecodedBytes)
        let projections = ProjectionHandlers(storage: storage, catalog: catalog)
        let sourcePriority = SourcePriorityHandlers(storage: storage, hub: hub)
        // Commits made by other collectors on a shared database wake no subscriber here: poll.
        let feed = ChangeFeedHandlers(
            storage: storage, hub: hub, heartbeat: configuration.streamHeartbeat,
            poll: storage is PostgresCollectorStorage ? .seconds(1) : .seconds(30))
        let api = router.group("/v1").add(middleware: AuthenticationMiddleware(authenticator: authenticator))
        api.post("batches", use: batches.handle)
        api.get("projections/daily", use: projections.daily)
        api.get("projections/sleep", use: projections.sleep)
        api.get("projections/insights", use: projections.insights)
        api.get("projections/extent", use: projections.extent)
        api.get("changes", use: feed.page)
        api.get("changes/stream", use: feed.stream)
        api.get("settings/source-priority", use: sourcePriority.get)
        api.put("settings/source-priority", use: sourcePriority.put)
        if let access = configuration.mcp {
            let mcp = MCPHandler(storage: storage, access: access, version: HealthETLVersion.current)
            router.group("/mcp").add(middleware: AuthenticationMiddleware(authenticator: authenticator))
                .post(use: mcp.handle)
        }

        return HTTPServer.application(
            router: router, host: configuration.host, port: configuration.port,
            idleTimeoutSeconds: configuration.idleTimeoutSeconds, maximumConnections: configuration.maximumConnections,
            openConnections: metrics?.connectionsOpen,
            services: [
                ProjectionRefresher(storage: storage, activity: activity, logger: logger),
                ChangeFeedService(
                    storage: storage, hub: hub, retention: configuration.changeRetention, now: configuration.clock.now,
                    logger: logger),
            ], logger: logger,
            onListening: onListening)
    }
}
