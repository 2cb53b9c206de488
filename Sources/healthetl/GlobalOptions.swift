import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLStore
import Logging

/// Options every command takes, before or after its name (`healthetl --store DIR status` or
/// `healthetl status --store DIR`): where the store is and which catalog extends the bundled one.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The store directory (default: $HEALTHETL_HOME, else $XDG_DATA_HOME/healthetl, else ~/.local/share/healthetl).",
            valueName: "dir"))
    var storePath: String?

    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp(
            "A catalog file whose metric definitions extend or override the bundled ones.",
            valueName: "file"))
    var catalogPath: String?

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp("Log lines on standard error as text or json (one object a line).", valueName: "text|json"))
    var logFormat: LogFormat?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "The least important log lines written: trace, debug, info, notice, warning, error or critical (default info).",
            valueName: "level"))
    var logLevel: String?

    func validate() throws {
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError(
                "--log-level takes one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// These options, with those given before the command's name where these are absent.
    func over(_ earlier: GlobalOptions) -> GlobalOptions {
        var merged = self
        merged.storePath = storePath ?? earlier.storePath
        merged.catalogPath = catalogPath ?? earlier.catalogPath
        merged.logFormat = logFormat ?? earlier.logFormat
        merged.logLevel = logLevel ?? earlier.logLevel
        return merged
    }

    /// The store directory the user asked for, or the default.
    var resolvedStorePath: String {
        if let storePath { return storePath }
        let environment = ProcessInfo.processInfo.environment
        if let home = environment["HEALTHETL_HOME"], !home.isEmpty { return home }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/healthetl" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/healthetl"
    }

    var storeDirectory: StoreDirectory { StoreDirectory(path: resolvedStorePath) }

    func openStore() throws -> Store {
        do {
            return try Store(directory: storeDirectory)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// The bundled catalog, merged with `--catalog FILE` when given.
    func loadCatalog() throws -> MetricCatalog {
        do {
            let bundled = try MetricCatalog.bundled()
            guard let catalogPath else { return bundled }
            guard let data = FileManager.default.contents(atPath: catalogPath) else {
                throw CommandFailure("cannot read the catalog file \(catalogPath); check the path and its permissions")
            }
            return try bundled.merging(MetricCatalog.decode(data, file: catalogPath), file: catalogPath)
        } catch {
            throw CommandFailure(error)
        }
    }
}

/// A subcommand that takes the global options: its own (after its name) over the root's.
protocol TakesGlobalOptions {
    var given: GlobalOptions { get }
    var root: HealthETL { get }
}

extension TakesGlobalOptions {
    var global: GlobalOptions { given.over(root.global) }
}
