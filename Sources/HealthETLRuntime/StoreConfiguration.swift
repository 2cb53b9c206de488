import Foundation
import HealthETLCore
import HealthETLStore

/// `config.json` in the store: one section per plugin (`sinks.collector`, `sources.apple_health`)
/// plus the projections' source priority, so the nightly run is just `healthetl upload`.
/// Options on the command line win over it; `--save-config` writes them into it.
///
/// ```json
/// {"projections": {"source_priority": ["My Watch"]},
///  "sinks": {"collector": {"endpoint": "https://collector.example.org", "token_file": "/etc/healthetl/token"}}}
/// ```
public struct StoreConfiguration: Equatable, Sendable {
    /// Plugin sections by their name, e.g. `sinks.collector`.
    public private(set) var sections: [String: PluginSettings] = [:]
    /// Source names that outrank the default order (manual, watch, phone, other) in projections.
    public var sourcePriority: [String]?
    /// Where `serve` keeps its data (`serve.database`), when not in SQLite.
    public var serve: ServeSettings?

    public init() {}

    public static func path(store: String) -> String { store + "/config.json" }

    /// The settings of a plugin's section (empty when the file has none).
    public func settings(for plugin: PluginDescriptor) -> PluginSettings {
        sections[plugin.configSection] ?? PluginSettings(section: plugin.configSection)
    }

    /// Sets (or, with `nil`, removes) one key of a plugin's section.
    public mutating func set(_ key: String, _ value: PluginSettings.Value?, for plugin: PluginDescriptor) {
        var settings = settings(for: plugin)
        settings.values[key] = value
        sections[plugin.configSection] = settings.values.isEmpty ? nil : settings
    }

    /// The store's configuration; none yet is an empty one.
    /// - Throws: `ConfigurationError` naming the file, the section and the key at fault.
    public static func load(store: String) throws(ConfigurationError) -> StoreConfiguration {
        let path = path(store: store)
        guard let data = FileManager.default.contents(atPath: path) else { return StoreConfiguration() }
        let document: ConfigurationDocument
        do {
            document = try JSONDecoder().decode(ConfigurationDocument.self, from: data)
        } catch {
            throw ConfigurationError(
                path: path, problem: "it is not a valid configuration (\(error)); fix or remove it")
        }
        var configuration = StoreConfiguration()
        configuration.sourcePriority = document.projections?.sourcePriority ?? document.legacy.sourcePriority
        configuration.serve = document.serve
        if let pool = document.serve?.databasePool, pool < 1 {
            throw ConfigurationError(path: path, problem: "serve.database_pool must be at least 1; fix or remove it")
        }
        for (kind, table) in [(PluginKind.source, document.sources), (.sink, document.sinks)] {
            for (name, values) in table ?? [:] {
                guard let plugin = PluginRegistry.descriptor(kind: kind, name: name) else {
                    throw ConfigurationError(
                        path: path,
                        problem:
                            "it has a section \(kind.configTable).\(name), but no \(kind.rawValue) is named \(name)"
                            + " (`healthetl plugins` lists them); fix or remove it")
                }
                let known = Set(plugin.settings.map(\.key))
                if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
                    let keys = plugin.settings.map(\.key).joined(separator: ", ")
                    throw ConfigurationError(
                        path: path,
                        problem: "\(plugin.configSection) has no setting \(unknown); it takes "
                            + (keys.isEmpty ? "none" : keys) + "; fix or remove it")
                }
                configuration.sections[plugin.configSection] = PluginSettings(
                    section: plugin.configSection, values: values)
            }
        }
        // A file written before plugin sections kept the collector's keys at the top.
        if let collector = PluginRegistry.descriptor(kind: .sink, name: "collector") {
            for (key, value) in document.legacy.collectorValues
            where configuration.settings(for: collector).values[key] == nil {
                configuration.set(key, value, for: collector)
            }
        }
        return configuration
    }

    /// Writes it private (0600), replacing the old file in one rename; creates the store's
    /// directory (0700) when it is new.
    public func save(store: String) throws {
        try StoreDirectory(path: store).prepare()
        var document = ConfigurationDocument()
        document.projections = sourcePriority.map { ConfigurationDocument.Projections(sourcePriority: $0) }
        document.serve = serve
        for (section, settings) in sections {
            let parts = section.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            if parts[0] == PluginKind.sink.configTable {
                document.sinks = (document.sinks ?? [:]).merging([parts[1]: settings.values]) { $1 }
            } else {
                document.sources = (document.sources ?? [:]).merging([parts[1]: settings.values]) { $1 }
            }
        }
        // `upload --save-config` can be the first command a store sees.
        if !FileManager.default.fileExists(atPath: store) {
            do {
                try FileManager.default.createDirectory(
                    atPath: store, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ConfigurationError(path: store, problem: "the store directory cannot be created (\(error))")
            }
        }
        let path = Self.path(store: store)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let temporary = path + ".partial"
        guard let bytes = try? encoder.encode(document),
            FileManager.default.createFile(atPath: temporary, contents: bytes, attributes: [.posixPermissions: 0o600])
        else {
            throw ConfigurationError(
                path: temporary, problem: "it cannot be written; check the store directory's permissions")
        }
        guard rename(temporary, path) == 0 else {
            throw ConfigurationError(path: path, problem: "it cannot be replaced")
        }
    }
}

/// A config file that cannot be used, and why.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public var description: String { "\(path): \(problem)" }
}
