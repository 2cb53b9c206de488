import HTTPTypes
import HealthETLCore
import Hummingbird
import Logging

/// What each request leaves behind: a request id (the client's `X-Request-Id` when it is a sane
/// one, else a new one) returned in the response, one access-log line, and the metrics.
/// The line holds the method, the route (the API's path, or `other`: never a query string or
/// an unknown path, which may hold anything), the status, bytes in and the duration; never
/// bodies, other headers or tokens.
struct RequestTelemetryMiddleware: RouterMiddleware {
    typealias Context = CollectorContext
    /// The server's paths: anything else is counted and logged as `other`.
    let routes: Set<String>
    let logger: Logger
    let metrics: ServerMetrics?
    let clock: Clock

    static let requestIDField = HTTPField.Name("X-Request-Id")!

    func handle(
        _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
    ) async throws -> Response {
        let started = clock.monotonic()
        var context = context
        let id = request.headers[Self.requestIDField].flatMap(Self.acceptable) ?? Self.newID()
        context.requestID = id
        context.logger[metadataKey: "request_id"] = "\(id)"
        let route = routes.contains(request.uri.path) ? request.uri.path : "other"
        metrics?.requestsInFlight.increment()
        defer { metrics?.requestsInFlight.decrement() }
        var response = try await next(request, context)
        response.headers[Self.requestIDField] = id
        let duration = clock.monotonic() - started
        metrics?.request(route: route, status: response.status.code, duration: duration)
        let milliseconds = duration.seconds * 1000
        logger.info(
            "request",
            metadata: [
                "request_id": "\(id)",
                "method": "\(request.method.rawValue)",
                "route": "\(route)",
                "status": "\(response.status.code)",
                "bytes_in": "\(request.headers[.contentLength] ?? "-")",
                "duration_ms": "\((milliseconds * 10).rounded() / 10)",
            ])
        return response
    }

    /// A client's id, when it is 1 to 128 visible ASCII characters (it is echoed and logged).
    static func acceptable(_ id: String) -> String? {
        let bytes = id.utf8
        guard (1...128).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return id
    }

    /// 16 random hex digits.
    static func newID() -> String { HexDigits.text(UInt64.random(in: 0...UInt64.max), digits: 16) }
}
