import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle

/// The HTTP/1 application both servers run (`serve`, `receive`): a router on an address, idle
/// connections closed, at most so many served at once, the bound port reported once listening;
/// and how they run: beside their metrics listener, until SIGTERM or SIGINT, then drained.
enum HTTPServer {
    static func application<Responder: HTTPResponderBuilder>(
        router: Responder, host: String, port: Int, idleTimeoutSeconds: Double, maximumConnections: Int,
        openConnections: Gauge? = nil, services: [any Service] = [], logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol
    where Responder.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        Application(
            router: router,
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    idleTimeout: TimeAmount.milliseconds(Int64(idleTimeoutSeconds * 1000)))),
            configuration: .init(
                address: .hostname(host, port: port), serverName: nil,
                availableConnectionsDelegate: CountedConnections(maximum: maximumConnections, open: openConnections)),
            services: services,
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// Runs `app` (and the metrics listener when asked for) until SIGTERM or SIGINT. Then it stops
    /// accepting, lets the requests in flight finish for up to the drain timeout, cancels what is
    /// left, and returns.
    static func run(
        _ app: some ApplicationProtocol, metrics: ServerMetrics?, operations: ServerOperations, logger: Logger
    ) async throws {
        var services = [ServiceGroupConfiguration.ServiceConfiguration(service: app)]
        if let metrics, let host = operations.metricsHost {
            services.append(.init(service: metricsApplication(metrics, host: host, port: operations.metricsPort)))
        }
        var configuration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = operations.drainTimeout
        try await ServiceGroup(configuration: configuration).run()
    }

    /// `GET /metrics` in Prometheus's text format, on its own address: the API port never serves it.
    static func metricsApplication(_ metrics: ServerMetrics, host: String, port: Int) -> some ApplicationProtocol {
        let router = Router()
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        return application(
            router: router, host: host, port: port, idleTimeoutSeconds: 60, maximumConnections: 16,
            logger: Logger(label: "healthetl.metrics"), onListening: { _ in })
    }
}
