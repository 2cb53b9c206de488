import HealthETLCore

/// Every error the collector returns: a stable snake_case code and a sentence for people.
public struct WireError: Codable, Sendable, Equatable, Error {
    public var error: String
    public var message: String

    public init(error: String, message: String) {
        self.error = error
        self.message = message
    }
}
