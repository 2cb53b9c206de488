import ArgumentParser
import Foundation
import HealthETLCollector
import HealthETLCore
import HealthETLRuntime
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
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL
    @OptionGroup var service: ServiceOptions

    @Option(help: ArgumentHelp("Address to listen on.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 8787

    @Option(
        help: ArgumentHelp("The collector's data directory (default: the store's collector/ folder).", valueName: "dir")
    )
    var data: String?

    @Option(help: ArgumentHelp("The tokens file (default: DATA/tokens).", valueName: "file"))
    var tokens: String?

    @Option(help: ArgumentHelp("Largest request body in MiB, as sent.", valueName: "MiB"))
    var maxBodyMib = 32

    @Option(
        help: ArgumentHelp("Close a connection that sends no request for this long (e.g. 15s).", valueName: "duration"))
    var idleTimeout = "15s"

    @Option(
        help: ArgumentHelp(
            "How long the change feed keeps a change; a client further behind rebuilds its projections (e.g. 30d).",
            valueName: "duration"))
    var changeRetention = "30d"

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

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard maxBodyMib >= 1 else { throw ValidationError("--max-body-mib must be at least 1") }
        guard let idle = DurationText.seconds(idleTimeout), idle >= 1 else {
            throw ValidationError("--idle-timeout takes a duration of at least 1s, such as 15s or 2m")
        }
        guard let retention = DurationText.seconds(changeRetention), retention >= 1 else {
            throw ValidationError("--change-retention takes a duration of at least 1s, such as 30d or 12h")
        }
        guard maxStreamsPerUser >= 1 else { throw ValidationError("--max-streams-per-user must be at least 1") }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if let databasePool, databasePool < 1 { throw ValidationError("--database-pool must be at least 1") }
    }

    func run() async throws {
        let dataDirectory = data ?? global.resolvedStorePath + "/collector"
        var configuration = CollectorConfiguration(
            host: host, port: port, dataDirectory: dataDirectory, tokensPath: tokens ?? dataDirectory + "/tokens",
            maximumBodyBytes: maxBodyMib << 20,
            maximumDecodedBytes: max(4 * (maxBodyMib << 20), WireLimits.decodedBatchBytes))
        configuration.idleTimeoutSeconds = Double(DurationText.seconds(idleTimeout) ?? 15)
        if let maxConnections { configuration.maximumConnections = maxConnections }
        configuration.changeRetention = .seconds(DurationText.seconds(changeRetention) ?? 30 * 86_400)
        configuration.maximumStreamsPerUser = maxStreamsPerUser
        configuration.operations = service.operations
        let configured = try CommandFailure.wrapping { try StoreConfiguration.load(store: global.resolvedStorePath) }
            .serve
        configuration.databaseURL =
            database ?? ProcessInfo.processInfo.environment["HEALTHETL_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? configured?.database
        configuration.databaseConnections = databasePool ?? configured?.databasePool ?? 20
        let catalog = try global.loadCatalog()
        let logger = Logger(label: "healthetl.collector")

        let host = host
        let place = try configuration.databaseURL.map { try PostgresURL($0, connections: 1).redacted } ?? dataDirectory
        do {
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
