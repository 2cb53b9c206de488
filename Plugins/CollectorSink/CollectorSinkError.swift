/// Why the collector sink cannot be set up: a bad endpoint, a token that cannot be used, a batch
/// that cannot be encoded. The message says what to do next and never contains the token.
public struct CollectorSinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable codes for callers that branch on the kind of failure (exit codes, tests).
    public enum Code: String, Hashable, Sendable {
        case invalidEndpoint = "invalid_endpoint"
        case insecureEndpoint = "insecure_endpoint"
        case invalidSetting = "invalid_setting"
        case tokenMissing = "token_missing"
        case tokenFileUnreadable = "token_file_unreadable"
        case tokenFileNotPrivate = "token_file_not_private"
        case tokenInvalid = "token_invalid"
        case encodingFailed = "encoding_failed"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
