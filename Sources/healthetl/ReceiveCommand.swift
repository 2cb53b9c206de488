import ArgumentParser
import Foundation
import HealthETLCollectorStorage
import HealthETLCore
import HealthETLRuntime
import HealthETLServer
import Logging

/// `healthetl receive`: the endpoint Health Auto Export's REST automation posts to.
struct ReceiveCommand: AsyncParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Receive Health Auto Export's pushes (its REST automation) into the store's hot lane.",
        discussion: """
            In the app, add a REST API automation with the URL http://HOST:PORT/hae, format JSON, and
            a header 'Authorization: Bearer TOKEN'. The token file holds one 'NAME TOKEN' line per
            phone, mode 0600 (e.g. `echo "iphone $(openssl rand -hex 32)" > tokens; chmod 600 tokens`);
            a push with NAME's token commits to stream health_auto_export:NAME. Each push is committed
            whole before the 200; a resend stores nothing twice. Tier-1 metrics go on to the configured
            collector at once. SIGINT or SIGTERM stops it after the pushes in flight are committed.
            Put it behind a TLS reverse proxy to reach it from outside (Docs/importing.md).
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL
    @OptionGroup var listener: ListenerOptions

    @Option(help: ArgumentHelp("The token file (default: STORE/receive-tokens).", valueName: "file"))
    var tokenFile: String?

    func run() async throws {
        let catalog = try global.loadCatalog()
        let storePath = global.resolvedStorePath
        let maxBodyMib = listener.maxBodyMib ?? 64
        var configuration = ReceiverConfiguration(
            host: listener.host, port: listener.port ?? 8788, tokensPath: tokenFile ?? storePath + "/receive-tokens",
            spoolDirectory: storePath + "/receive-spool", maximumBodyBytes: maxBodyMib << 20,
            maximumDecodedBytes: 4 * (maxBodyMib << 20))
        configuration.idleTimeoutSeconds = Double(listener.idleTimeout?.seconds ?? 30)
        configuration.operations = listener.operations
        let logger = Logger(label: "healthetl.receive")
        let host = listener.host
        do {
            _ = try global.openStore()
            let committer = try PushIngest(store: global.storeDirectory, catalog: catalog) { printError($0) }
            try await PushReceiver.run(configuration: configuration, committer: committer, logger: logger) { port in
                // Unbuffered: scripts and tests wait for this line to learn the port.
                let line = "healthetl receive listening on http://\(host):\(port)/hae (store \(storePath))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        } catch let error as CollectorError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure(error)
        }
    }
}
