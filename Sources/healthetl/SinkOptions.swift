import ArgumentParser
import HealthETLCore
import HealthETLRuntime

/// Where uploads go: a sink from the registry (the collector by default), its options over the
/// store's config.json section for it.
struct SinkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The sink to upload to, by its registry name (`healthetl plugins`).", valueName: "name"))
    var sink = "collector"

    @Option(
        help: ArgumentHelp(
            "The collector's URL, e.g. https://collector.example.org (default: config.json).", valueName: "url"))
    var endpoint: String?

    @Option(
        help: ArgumentHelp(
            "File holding the bearer token, mode 600 (default: config.json, else $CREDENTIALS_DIRECTORY/healthetl-token).",
            valueName: "file"))
    var tokenFile: String?

    @Flag(help: "Allow plain http:// to a host other than this machine (the data and token travel unencrypted).")
    var allowInsecureHTTP = false

    @Option(help: ArgumentHelp("Samples per batch (default 5000).", valueName: "n"))
    var batchSize: Int?

    @Flag(help: "Save --endpoint, --token-file, --allow-insecure-http and --batch-size into the store's config.json.")
    var saveConfig = false

    /// The options given, as settings of the sink's config section.
    var overrides: [String: PluginSettings.Value] {
        var values: [String: PluginSettings.Value] = [:]
        if let endpoint { values["endpoint"] = .text(endpoint) }
        if let tokenFile { values["token_file"] = .text(tokenFile) }
        if allowInsecureHTTP { values["allow_insecure_http"] = .flag(true) }
        if let batchSize { values["batch_samples"] = .number(Double(batchSize)) }
        return values
    }

    /// The sink and its settings, options over the stored configuration; saved when asked.
    func resolve(store: String) throws -> SinkChoice {
        do {
            return try SinkChoice.resolve(store: store, sink: sink, overrides: overrides, save: saveConfig)
        } catch let error as RegistryError {
            throw CommandFailure(error.description, exitCode: .usage)
        } catch {
            throw CommandFailure(error)
        }
    }
}
