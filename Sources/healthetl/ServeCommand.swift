import ArgumentParser
import Foundation
import HealthETLCollectorStorage
import HealthETLCore
import HealthETLMCP
import HealthETLRuntime
import HealthETLServer
import HealthETLWire
import Logging

/// `healthetl serve`: the collector, the backend the uploaders ship to.
struct ServeCommand: AsyncParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Run the collector: the HTTP backend the uploaders ship batches to, with daily rollups and sleep nights.",
        discussion: """
            Every request needs 'Authorization: Bearer TOKEN' with a token from the tokens file:
            one 'USER_ID TOKEN' line per user, mode 0600 (e.g. `echo "me $(openssl rand -hex 32)" > tokens;
            chmod 600 tokens`). Each user sees only their own data. The API is described in
            Docs/openapi.yaml. SIGINT or SIGTERM stops it after the requests in flight are answered
            (within --drain-timeout). --metrics-address serves Prometheus metrics on a port of their own.
            --mcp adds the read-only MCP tools at /mcp for assistants (Docs/mcp.md).
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL
    @OptionGroup var listener: ListenerOptions

    @Option(
        help: ArgumentHelp("The collector's data directory (default: the store's collector/ folder).", valueName: "dir")
    )
    var data: String?

    @Option(help: ArgumentHelp("The tokens file (default: DATA/tokens).", valueName: "file"))
    var tokens: String?

    @Option(
        help: ArgumentHelp(
            "How long the change feed keeps a change; a client further behind rebuilds its projections (e.g. 30d).",
            valueName: "duration"))
    var changeRetention = TimeSpan.days(30)

    @Option(
        help: ArgumentHelp(
            "Change streams one user may hold open at once (each `healthetl follow` holds one).", valueName: "n"))
    var maxStreamsPerUser = 16

    @Option(
        help: ArgumentHelp(
            "Connections served at once (default: the open-file limit less 64); more wait to be accepted.",
            valueName: "n"))
    var maxConnections: Int?

    @Option(
        help: ArgumentHelp(
            "Keep the data in PostgreSQL instead of the embedded SQLite database (default: $HEALTHETL_DATABASE_URL, else the store config's serve.database).",
            valueName: "postgres://user@host/db"))
    var database: String?

    @Option(help: ArgumentHelp("PostgreSQL connections in the pool, at most (default 20).", valueName: "n"))
    var databasePool: Int?

    @Flag(
        help: ArgumentHelp(
            "Also serve the read-only MCP tools at /mcp (Streamable HTTP), each user's own data behind their token."))
    var mcp = false

    @Option(
        name: .customLong("mcp-metrics"),
        help: ArgumentHelp(
            "With --mcp: expose only these metrics (comma-separated catalog names).", valueName: "names"))
    var mcpMetrics: String?

    func validate() throws {
        guard changeRetention.seconds >= 1 else {
            throw ValidationError("--change-retention takes a duration of at least 1s, such as 30d or 12h")
        }
        guard maxStreamsPerUser >= 1 else { throw ValidationError("--max-streams-per-user must be at least 1") }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if let databasePool, databasePool < 1 { throw ValidationError("--database-pool must be at least 1") }
        if mcpMetrics != nil && !mcp { throw ValidationError("--mcp-metrics takes effect with --mcp only") }
    }

    func run() async throws {
        let dataDirectory = data ?? global.resolvedStorePath + "/collector"
        let maxBodyMib = listener.maxBodyMib ?? 32
        var configuration = CollectorConfiguration(
            host: listener.host, port: listener.port ?? 8787, dataDirectory: dataDirectory,
            tokensPath: tokens ?? dataDirectory + "/tokens", maximumBodyBytes: maxBodyMib << 20,
            maximumDecodedBytes: max(4 * (maxBodyMib << 20), WireLimits.decodedBatchBytes))
        configuration.idleTimeoutSeconds = Double(listener.idleTimeout?.seconds ?? 15)
        if let maxConnections { configuration.maximumConnections = maxConnections }
        configuration.changeRetention = changeRetention.duration
        configuration.maximumStreamsPerUser = maxStreamsPerUser
        configuration.operations = listener.operations
        let settings = try CommandFailure.wrapping {
            try ServeSettings.resolved(
                database: database, databasePool: databasePool, store: global.resolvedStorePath,
                environment: ProcessInfo.processInfo.environment)
        }
        configuration.databaseURL = settings.database
        configuration.databaseConnections = settings.databasePool ?? ServeSettings.defaultPool
        let catalog = try global.loadCatalog()
        if mcp {
            configuration.mcp = try CommandFailure.wrapping {
                try MetricAccess(catalog: catalog, allowed: mcpMetrics.map(MCPCommand.names))
            }
        }
        let logger = Logger(label: "healthetl.collector")

        let host = listener.host
        do {
            let place = try Collector.dataPlace(configuration)
            try await Collector.run(configuration: configuration, catalog: catalog, logger: logger) { port in
                // Unbuffered: scripts and tests wait for this line to learn the port.
                let line = "healthetl collector listening on http://\(host):\(port) (data in \(place))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        } catch let error as CollectorError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure(error)
        }
    }
}
