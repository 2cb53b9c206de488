/// The sink refused the upload's credentials. A run stops at the first such answer: every batch
/// stays queued, unjudged, and goes out with the next run once the token is fixed.
public struct CredentialsRefused: Error, Sendable, CustomStringConvertible {
    /// The sink's words, which say which token to check.
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String {
        "the upload stopped because \(reason). Nothing was lost: every batch stays queued; "
            + "fix the token, then run `healthetl upload` (or `healthetl sync --catch-up`)"
    }
}
