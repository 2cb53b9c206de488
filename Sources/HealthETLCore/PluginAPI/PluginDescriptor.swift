/// What the registry says of a plugin: `healthetl plugins` lists these, and the config file's
/// sections are named and checked by them.
public struct PluginDescriptor: Codable, Equatable, Sendable {
    /// Stable snake_case name (`apple_health`, `collector`).
    public var name: String
    public var kind: PluginKind
    /// The capabilities it declares, each one the conformance suites check it honours.
    public var capabilities: [String]
    public var summary: String
    /// The keys its config section takes.
    public var settings: [PluginSetting]

    public init(name: String, kind: PluginKind, capabilities: [String], summary: String, settings: [PluginSetting]) {
        self.name = name
        self.kind = kind
        self.capabilities = capabilities
        self.summary = summary
        self.settings = settings
    }

    /// Its section of the config file, e.g. `sinks.collector`.
    public var configSection: String { kind.configTable + "." + name }
}
