import HealthETLCore

/// The sink as the registry makes it, from its config section `sinks.collector`.
extension CollectorSink {
    public static let settings: [PluginSetting] = [
        PluginSetting("endpoint", "the collector's URL, e.g. https://collector.example.org"),
        PluginSetting(
            "token_file",
            "a file holding only the bearer token, mode 600 (default: the systemd credential \(CollectorToken.credentialName))"
        ),
        PluginSetting("allow_insecure_http", "true to allow plain http:// to a host other than this machine"),
        PluginSetting("batch_samples", "samples per uploaded batch (default 5000)"),
        PluginSetting("batch_bytes", "the byte budget of one batch's JSON"),
    ]

    public static func make(_ settings: PluginSettings, environment: [String: String]) throws -> CollectorSink {
        guard let endpoint = try settings.text("endpoint") else {
            throw CollectorSinkError(
                .invalidSetting,
                "no collector endpoint: pass --endpoint URL (add --save-config to remember it), or set "
                    + "\(settings.section).endpoint in the store's config.json")
        }
        let token = try CollectorToken.load(tokenFile: try settings.text("token_file"), environment: environment)
        let configuration = try CollectorSinkConfiguration(
            endpoint: endpoint, token: token, allowInsecureHTTP: try settings.flag("allow_insecure_http") ?? false)
        return CollectorSink(configuration: configuration)
    }
}
