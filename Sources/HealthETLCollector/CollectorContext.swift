import Hummingbird

/// The request context: the authenticated user, once `AuthenticationMiddleware` found one.
struct CollectorContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var user: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        user = nil
    }

    /// The user, for handlers behind the authentication middleware.
    func requireUser() throws -> String {
        guard let user else { throw APIError.unauthorized() }
        return user
    }
}
