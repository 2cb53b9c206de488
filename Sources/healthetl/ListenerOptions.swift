import ArgumentParser
import HealthETLCore
import HealthETLServer

/// What the two servers (`serve`, `receive`) take about listening and running as a service:
/// the address, the limits on a connection and a body, the metrics listener and the drain
/// timeout. Where the servers' defaults differ, the option is optional and each command says its own.
struct ListenerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Address to listen on.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(
        help: ArgumentHelp(
            "Port to listen on; 0 picks a free one (default: serve 8787, receive 8788).", valueName: "port"))
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "Largest request body in MiB, as sent (default: serve 32, receive 64; receive decompresses gzip up to 4×).",
            valueName: "MiB"))
    var maxBodyMib: Int?

    @Option(
        help: ArgumentHelp(
            "Close a connection that sends no request for this long (default: serve 15s, receive 30s).",
            valueName: "duration"))
    var idleTimeout: TimeSpan?

    @Option(
        help: ArgumentHelp(
            "Serve Prometheus metrics at http://HOST:PORT/metrics, a listener apart from the API's (default: off).",
            valueName: "host:port"))
    var metricsAddress: String?

    @OptionGroup var drain: DrainOptions

    func validate() throws {
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        if let maxBodyMib, !(1...4_096).contains(maxBodyMib) {
            throw ValidationError("--max-body-mib must be between 1 and 4096")
        }
        if let idleTimeout, idleTimeout.seconds < 1 {
            throw ValidationError("--idle-timeout takes a duration of at least 1s, such as 15s or 2m")
        }
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
