/// Why a delivery failed, classified the way the retry queue needs it.
public enum DeliveryError: Error, Hashable, Sendable {
    /// Worth retrying (timeouts, 5xx, 429, connection resets); `notBeforeSeconds` honours `Retry-After`.
    case retryable(reason: String, notBeforeSeconds: Double?)
    /// Retrying the same batch cannot succeed (a 4xx other than 401/403/408/409/429).
    case permanent(reason: String)
    /// The sink refused the credentials (401, 403): the batch is not at fault, and no batch gets
    /// through until they are fixed, so it waits and the run stops.
    case unauthorized(reason: String)
}
