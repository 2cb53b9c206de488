import HealthETLCore
import Hummingbird
import Logging

/// One line per request: method, path (never the query string), status, bytes in and duration.
/// Never bodies, other headers or tokens.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = CollectorContext
    let logger: Logger
    let clock: Clock

    func handle(
        _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
    ) async throws -> Response {
        let started = clock.monotonic()
        let response = try await next(request, context)
        let milliseconds = clock.secondsSince(started) * 1000
        logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)",
                "path": "\(request.uri.path)",
                "status": "\(response.status.code)",
                "bytes_in": "\(request.headers[.contentLength] ?? "-")",
                "ms": "\((milliseconds * 10).rounded() / 10)",
            ])
        return response
    }
}
