import ArgumentParser
import HealthETLCore
import HealthETLRuntime

/// `healthetl plugins`: the registry — every source and sink by name, kind and capabilities.
struct PluginsCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the registered sources and sinks by name, kind and capabilities.",
        discussion: """
            `import` picks the source whose probe recognises the input (or the one --source names);
            `upload` and `sync` ship to the sink --sink names (collector by default). Each plugin's
            settings live in its section of the store's config.json, e.g. sinks.collector.
            """)

    // Taken like every command's, though the registry is the same for every store.
    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Flag(help: "Print one JSON object (`plugins`: every plugin) instead of a table.")
    var json = false

    func run() throws {
        let plugins = PluginRegistry.descriptors
        if json { return try JSONOutput.print(["plugins": plugins.map(PluginListing.init)]) }
        var table = TextTable("NAME", "KIND", "CAPABILITIES", "CONFIG SECTION", "SUMMARY")
        for plugin in plugins {
            table.add(
                plugin.name, plugin.kind.rawValue, plugin.capabilities.joined(separator: ", "), plugin.configSection,
                plugin.summary)
        }
        print(table.rendered)
    }
}

/// One plugin as `plugins --json` prints it.
private struct PluginListing: Encodable {
    let name: String
    let kind: String
    let capabilities: [String]
    let summary: String
    let configSection: String
    let settings: [PluginSetting]

    init(_ plugin: PluginDescriptor) {
        name = plugin.name
        kind = plugin.kind.rawValue
        capabilities = plugin.capabilities
        summary = plugin.summary
        configSection = plugin.configSection
        settings = plugin.settings
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, capabilities, summary, settings
        case configSection = "config_section"
    }
}
