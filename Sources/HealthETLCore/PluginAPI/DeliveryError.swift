/// Why a delivery failed, classified the way the retry queue needs it.
public enum DeliveryError: Error, Hashable, Sendable {
    /// Worth retrying (timeouts, 5xx, 429, connection resets); `notBeforeSeconds` honours `Retry-After`.
    case retryable(reason: String, notBeforeSeconds: Double?)
    /// Retrying the same batch cannot succeed (a 4xx other than 408/409/429).
    case permanent(reason: String)
}
