import Hummingbird
import Logging

/// One line per request: method, path (never the query string), status, bytes in and duration.
/// Never bodies, other headers or tokens.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = CollectorContext
    let logger: Logger

    func handle(
        _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
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
