/// What `serve` and `receive` share about running as a service: where the Prometheus metrics
/// listen (a separate port, never the API's), and how long a SIGTERM may take to drain.
public struct ServerOperations: Sendable {
    /// `--metrics-address HOST:PORT`: nil keeps the metrics off.
    public var metricsHost: String?
    public var metricsPort = 0
    /// After SIGTERM or SIGINT, requests in flight have this long to finish before they are cancelled.
    public var drainTimeout: Duration = .seconds(10)

    public init() {}

    /// A new registry for the server, or nil when the metrics are off.
    func metrics() -> ServerMetrics? { metricsHost == nil ? nil : ServerMetrics() }
}
