import ArgumentParser
import HealthETLCollector
import HealthETLCore

/// What the servers (`serve`, `receive`) take about running as a service: the metrics listener
/// and the drain timeout.
struct ServiceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Serve Prometheus metrics at http://HOST:PORT/metrics, a listener apart from the API's (default: off).",
            valueName: "host:port"))
    var metricsAddress: String?

    @OptionGroup var drain: DrainOptions

    func validate() throws {
        if let metricsAddress, Self.hostAndPort(metricsAddress) == nil {
            throw ValidationError("--metrics-address takes HOST:PORT, such as 127.0.0.1:9464 or [::1]:9464")
        }
    }

    var operations: ServerOperations {
        var operations = ServerOperations()
        if let (host, port) = metricsAddress.flatMap(Self.hostAndPort) {
            operations.metricsHost = host
            operations.metricsPort = port
        }
        operations.drainTimeout = drain.duration
        return operations
    }

    /// `HOST:PORT`, `[IPv6]:PORT`, or `:PORT` for loopback.
    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }
}
