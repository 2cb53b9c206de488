/// A source plugin as the registry holds it: its name, what it declares, and its content probe.
/// Export readers refine it as `SourceAdapter`; live streams (`LaneSource`) are made by their
/// own commands and refuse every file.
public protocol SourcePlugin: Sendable {
    /// Stable snake_case registry name, also its config section (`sources.apple_health`).
    static var name: String { get }
    /// One line for `healthetl plugins`, `--help` and error messages.
    static var summary: String { get }
    /// What it does; the source conformance suite checks each one.
    static var capabilities: SourceCapabilities { get }
    /// The keys its config section takes.
    static var settings: [PluginSetting] { get }

    /// Whether this plugin can read the input, judged by content, not by file name; when it
    /// cannot, the reason says why in words a user can act on.
    func recognize(_ input: SourceInput) -> SourceRecognition
}

extension SourcePlugin {
    public static var settings: [PluginSetting] { [] }

    public static var descriptor: PluginDescriptor {
        PluginDescriptor(
            name: name, kind: .source, capabilities: capabilities.names, summary: summary, settings: settings)
    }
}
