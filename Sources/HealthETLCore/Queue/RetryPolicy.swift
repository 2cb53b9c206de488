/// How long to wait before the next attempt: exponential backoff with full jitter (a random
/// delay between 0 and base × 2^(attempt-1), capped), never less than the server's `Retry-After`.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts after which a still-failing batch is dead.
    public var maximumAttempts: Int
    public var baseSeconds: Double
    public var capSeconds: Double

    public init(maximumAttempts: Int = 10, baseSeconds: Double = 2, capSeconds: Double = 3600) {
        self.maximumAttempts = maximumAttempts
        self.baseSeconds = baseSeconds
        self.capSeconds = capSeconds
    }

    /// - Parameters:
    ///   - attempt: the attempt that just failed, from 1.
    ///   - random: uniform in [0, 1), injected so tests are exact.
    ///   - notBefore: the server's `Retry-After`, in seconds.
    public func delaySeconds(afterAttempt attempt: Int, random: Double, notBefore: Double?) -> Double {
        let ceiling = min(capSeconds, baseSeconds * Double(1 << min(max(attempt - 1, 0), 30)))
        return max(ceiling * random, notBefore ?? 0)
    }
}
