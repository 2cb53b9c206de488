import ArgumentParser
import CollectorSink
import HealthETLCore
import HealthETLPipeline

/// Where uploads go: the `collector` sink's options, falling back to the store's config.json.
struct SinkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The collector's URL, e.g. https://collector.example.org (default: config.json).", valueName: "url"))
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

    @Flag(help: "Save --endpoint, --token-file and --allow-insecure-http into the store's config.json for later runs.")
    var saveConfig = false

    /// The sink configuration, options over the stored configuration; saved when asked.
    func resolve(store: String) throws -> (CollectorSinkConfiguration, UploadLimits) {
        var stored = try StoreConfiguration.load(store: store)
        if saveConfig {
            if let endpoint { stored.endpoint = endpoint }
            if let tokenFile { stored.tokenFile = tokenFile }
            if allowInsecureHTTP { stored.allowInsecureHTTP = true }
            if let batchSize { stored.batchSamples = batchSize }
            try stored.save(store: store)
        }
        guard let url = endpoint ?? stored.endpoint else {
            throw CommandFailure(
                "no collector endpoint: pass --endpoint URL (add --save-config to remember it), or set \"endpoint\" in "
                    + StoreConfiguration.path(store: store), exitCode: .usage)
        }
        do {
            let token = try CollectorToken.load(tokenFile: tokenFile ?? stored.tokenFile)
            let configuration = try CollectorSinkConfiguration(
                endpoint: url, token: token, allowInsecureHTTP: allowInsecureHTTP || stored.allowInsecureHTTP == true)
            var limits = UploadLimits()
            if let samples = batchSize ?? stored.batchSamples { limits.samples = max(1, samples) }
            if let bytes = stored.batchBytes { limits.bytes = max(64 << 10, bytes) }
            return (configuration, limits)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
