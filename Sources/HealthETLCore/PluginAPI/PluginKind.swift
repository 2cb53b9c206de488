/// Whether a plugin brings data in or ships it out.
public enum PluginKind: String, Codable, Sendable {
    case source
    case sink

    /// The config file's table of this kind's sections: `sources` or `sinks`.
    public var configTable: String { rawValue + "s" }
}
