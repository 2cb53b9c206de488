import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLStore

/// Options every command takes, before or after its name (`healthetl --store DIR status` or
/// `healthetl status --store DIR`): where the store is and which catalog extends the bundled one.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The store directory (default: $HEALTHETL_HOME, else ~/.local/share/healthetl).",
            valueName: "dir"))
    var storePath: String?

    @Option(
        name: .customLong("catalog"),
        help: ArgumentHelp(
            "A catalog file whose metric definitions extend or override the bundled ones.",
            valueName: "file"))
    var catalogPath: String?

    /// These options, with those given before the command's name where these are absent.
    func over(_ earlier: GlobalOptions) -> GlobalOptions {
        var merged = self
        merged.storePath = storePath ?? earlier.storePath
        merged.catalogPath = catalogPath ?? earlier.catalogPath
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
