/// What a sink's far end does with one delivery, as the sink conformance suite scripts it.
public enum SinkFault: Sendable, Equatable {
    /// The far end is down (a 503, a refused connection).
    case unavailable
    /// The far end asks to be left alone for a while (a 429 with `Retry-After`).
    case throttled(retryAfterSeconds: Int)
    /// The far end answers, but only after the sink has given up waiting.
    case slowerThanTheTimeout
    /// The far end refuses the batch as it is (a 4xx): trying it again cannot help.
    case refused
}
