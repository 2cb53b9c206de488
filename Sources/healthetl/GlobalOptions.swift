import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLStore

/// Options every command takes: where the store is and which catalog extends the bundled one.
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

    /// The options every subcommand declares, each taking one value.
    static let names = ["--store", "--catalog"]

    /// Lets global options stand before the subcommand (`healthetl --store DIR status`), where
    /// the contract puts them: they are moved after the subcommand name, which declares them.
    static func movedAfterSubcommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if names.contains(where: { argument.hasPrefix($0 + "=") }) {
                leading.append(argument)
                index += 1
            } else if names.contains(argument), index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count, !arguments[index].hasPrefix("-") else {
            return arguments
        }
        return [arguments[index]] + leading + arguments[(index + 1)...]
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
