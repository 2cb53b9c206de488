import HealthETLCore

/// What `healthetl doctor` learns from one authenticated `GET /v1/healthz`: the collector
/// answered (over TLS when the endpoint is https), accepted the token, and what its clock said.
public struct CollectorProbe: Sendable {
    public var usesTLS: Bool
    public var roundTripSeconds: Double
    /// The answer's `Date` header; nil when the collector sent none.
    public var serverTime: Instant?
    /// Our clock when the answer came.
    public var localTime: Instant

    /// How far the collector's clock is ahead of ours (negative: behind), to the second that
    /// `Date` carries.
    public var clockSkewSeconds: Double? {
        serverTime.map { Double($0.millisecondsSinceEpoch - localTime.millisecondsSinceEpoch) / 1000 }
    }
}
