import Prometheus

/// What `serve` and `receive` export on `--metrics-address`, in Prometheus's text format:
/// requests per route and status with their durations, what was ingested per outcome, the
/// connections and change streams open, and how long the database took to commit.
/// Label values are routes, status codes and outcomes only: never a user, a token or a value.
public final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    /// For `CountedConnections`, the request middleware and the change hub.
    let connectionsOpen: Gauge
    let requestsInFlight: Gauge
    let streamsOpen: Gauge
    private let commitDuration: DurationHistogram

    static let durationBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
        .seconds(10),
    ]

    public init() {
        connectionsOpen = registry.makeGauge(
            descriptor: Self.name("http", "connections", "open", "HTTP connections open on the API port."))
        requestsInFlight = registry.makeGauge(
            descriptor: Self.name("http", "requests", "in_flight", "Requests being answered."))
        streamsOpen = registry.makeGauge(
            descriptor: Self.name("change", "streams", "open", "Change-feed streams (`healthetl follow`) subscribed."))
        commitDuration = registry.makeDurationHistogram(
            descriptor: Self.name(
                "database", "commit_duration", "seconds",
                "Time to store one batch or push in the database, its transaction included."),
            buckets: Self.durationBuckets)
        // Every outcome from the start, so a dashboard's rate() has a zero to begin from.
        for outcome in IngestOutcome.allCases {
            for item in IngestItem.allCases { counter(item, outcome) }
        }
    }

    /// One answered request: `route` is the API's path for it, or `other`.
    func request(route: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.requests, labels: [("route", route), ("code", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.requestDuration, labels: [("route", route)], buckets: Self.durationBuckets
        ).record(duration)
    }

    /// What one batch (or push) came to.
    func ingested(_ item: IngestItem, _ outcome: IngestOutcome, count: Int) {
        guard count > 0 else { return }
        counter(item, outcome).increment(by: Int64(count))
    }

    func committed(after duration: Duration) { commitDuration.record(duration) }

    @discardableResult
    private func counter(_ item: IngestItem, _ outcome: IngestOutcome) -> Counter {
        registry.makeCounter(
            descriptor: Self.name("ingested", item.rawValue, "total", item.help),
            labels: [("outcome", outcome.rawValue)])
    }

    static var requests: MetricNameDescriptor {
        name("http", "requests", "total", "HTTP requests answered, per route and status code.")
    }
    static var requestDuration: MetricNameDescriptor {
        name("http", "request_duration", "seconds", "Time from a request's arrival to its answer, per route.")
    }

    /// `healthetl_SUBSYSTEM_METRIC_UNIT`.
    static func name(_ subsystem: String, _ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "healthetl", subsystem: subsystem, metricName: metric, unitName: unit, helpText: help)
    }

    /// The text a scrape gets.
    public func exposition() -> [UInt8] { registry.emitToBuffer() }
}
