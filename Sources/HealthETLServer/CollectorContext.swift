import Hummingbird
import NIOCore

/// The request context: the authenticated user, once `AuthenticationMiddleware` found one.
struct CollectorContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var user: String?
    /// The request's id (`X-Request-Id`), set by `RequestTelemetryMiddleware`.
    var requestID: String?
    /// The connection, for a change stream the hub may have to close.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        user = nil
        requestID = nil
    }

    /// The user, for handlers behind the authentication middleware.
    func requireUser() throws -> String {
        guard let user else { throw APIError.unauthorized() }
        return user
    }
}
