import HealthETLCore
import HealthETLWire
import Hummingbird
import Logging

/// Outermost: every failure leaves as JSON `{error, message}` — the framework's own errors
/// (unknown route, body too large) included — and an unexpected one is logged by type only.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = CollectorContext

    func handle(
        _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return JSONResponse.make(status: error.status, WireError(error: error.code, message: error.message))
        } catch let error as any HTTPResponseError {
            let code = error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
            let message = (error as? HTTPError)?.body ?? error.status.reasonPhrase
            return JSONResponse.make(status: error.status, WireError(error: code, message: message))
        } catch {
            context.logger.error("request failed", metadata: ["error.type": "\(type(of: error))"])
            return JSONResponse.make(
                status: .internalServerError,
                WireError(error: "internal", message: "the collector failed to answer; try again"))
        }
    }
}
