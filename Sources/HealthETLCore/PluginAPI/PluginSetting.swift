/// One key a plugin takes in its config-file section, with what it means.
public struct PluginSetting: Codable, Equatable, Sendable {
    public var key: String
    public var help: String

    public init(_ key: String, _ help: String) {
        self.key = key
        self.help = help
    }
}
