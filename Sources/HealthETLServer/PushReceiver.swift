import HTTPTypes
import HealthETLWire
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// `healthetl receive`: the endpoint Health Auto Export's REST automation posts to — `POST /hae`
/// behind a bearer token, `GET /healthz` — with the collector's access log, error bodies and
/// connection limits.
public enum PushReceiver {
    static let routes: [String: [HTTPRequest.Method]] = ["/healthz": [.get], "/hae": [.post]]

    /// Serves until SIGINT or SIGTERM, finishing in-flight requests first.
    public static func run(
        configuration: ReceiverConfiguration, committer: any PushCommitter, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void
    ) async throws {
        let metrics = configuration.operations.metrics()
        let app = try application(
            configuration: configuration, committer: committer, metrics: metrics, logger: logger,
            onListening: onListening)
        try await HTTPServer.run(app, metrics: metrics, operations: configuration.operations, logger: logger)
    }

    public static func application(
        configuration: ReceiverConfiguration, committer: any PushCommitter, metrics: ServerMetrics? = nil,
        logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let authenticator = Authenticator(try TokenFile(path: configuration.tokensPath, option: "--token-file"))
        let router = Router(context: CollectorContext.self)
        router.add(
            middleware: RequestTelemetryMiddleware(
                routes: Set(routes.keys), logger: logger, metrics: metrics, clock: .system))
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: MethodNotAllowedMiddleware(routes: routes))
        router.get("/healthz") { _, _ in JSONResponse.make(["status": "ok"]) }
        try PushSpool.prepare(directory: configuration.spoolDirectory)
        let push = PushHandler(
            committer: committer, maximumBodyBytes: configuration.maximumBodyBytes,
            maximumDecodedBytes: configuration.maximumDecodedBytes,
            budget: DecodedBytesBudget(limit: configuration.maximumDecodedBytesInFlight),
            spoolDirectory: configuration.spoolDirectory, metrics: metrics)
        router.group("/hae").add(middleware: AuthenticationMiddleware(authenticator: authenticator))
            .post(use: push.handle)
        return HTTPServer.application(
            router: router, host: configuration.host, port: configuration.port,
            idleTimeoutSeconds: configuration.idleTimeoutSeconds, maximumConnections: configuration.maximumConnections,
            openConnections: metrics?.connectionsOpen, logger: logger, onListening: onListening)
    }
}
