import Hummingbird

/// Lets through only requests with a known bearer token, and records whose they are.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = CollectorContext
    let authenticator: Authenticator

    func handle(
        _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
    ) async throws -> Response {
        guard let user = authenticator.user(authorization: request.headers[.authorization]) else {
            throw APIError.unauthorized()
        }
        var context = context
        context.user = user
        return try await next(request, context)
    }
}
