import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The HTTP/1 application both servers run (`serve`, `receive`): a router on an address, idle
/// connections closed, at most so many served at once, the bound port reported once listening.
enum HTTPServer {
    static func application<Responder: HTTPResponderBuilder>(
        router: Responder, host: String, port: Int, idleTimeoutSeconds: Double, maximumConnections: Int,
        services: [any Service] = [], logger: Logger, onListening: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol
    where Responder.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        Application(
            router: router,
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    idleTimeout: TimeAmount.milliseconds(Int64(idleTimeoutSeconds * 1000)))),
            configuration: .init(
                address: .hostname(host, port: port), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(maximumConnections)),
            services: services,
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
