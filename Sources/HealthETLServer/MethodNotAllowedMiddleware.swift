import HTTPTypes
import HealthETLWire
import Hummingbird

/// A path the API serves, asked with a method it does not serve: 405 with `Allow` naming the
/// methods it does, rather than the router's 404 (which would say the path does not exist).
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = CollectorContext
    /// Path → the methods routed for it.
    let routes: [String: [HTTPRequest.Method]]

    func handle(
        _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
    ) async throws -> Response {
        guard let methods = routes[request.uri.path], !methods.contains(request.method) else {
            return try await next(request, context)
        }
        let allow = methods.map(\.rawValue).joined(separator: ", ")
        return JSONResponse.make(
            status: .methodNotAllowed,
            WireError(error: "method_not_allowed", message: "\(request.uri.path) answers \(allow) only"),
            headers: [.allow: allow])
    }
}
