import Foundation
import HealthETLCore
import HealthETLPipeline

/// The sink uploads go to, as the store's config file and the command line's options settle it:
/// which plugin, its section's settings, and the batch limits.
public struct SinkChoice: Sendable {
    public let plugin: any SampleSink.Type
    public let settings: PluginSettings
    public let limits: UploadLimits

    /// - Parameters:
    ///   - name: the sink's registry name.
    ///   - overrides: settings given on the command line; they win over the file's.
    ///   - save: write the overrides into the store's config file for later runs.
    public static func resolve(
        store: String, sink name: String = "collector", overrides: [String: PluginSettings.Value] = [:],
        save: Bool = false
    ) throws -> SinkChoice {
        let plugin = try PluginRegistry.sink(named: name)
        var configuration = try StoreConfiguration.load(store: store)
        if save {
            for (key, value) in overrides { configuration.set(key, value, for: plugin.descriptor) }
            try configuration.save(store: store)
        }
        return try SinkChoice(plugin: plugin, configuration: configuration, overrides: overrides)
    }

    /// The sink the store's config file sets up, `nil` when its section is empty (tier 1 runs
    /// only when there is one). The file is read once.
    public static func configured(store: String, sink name: String = "collector") throws -> SinkChoice? {
        let plugin = try PluginRegistry.sink(named: name)
        let configuration = try StoreConfiguration.load(store: store)
        guard !configuration.settings(for: plugin.descriptor).values.isEmpty else { return nil }
        return try SinkChoice(plugin: plugin, configuration: configuration, overrides: [:])
    }

    private init(
        plugin: any SampleSink.Type, configuration: StoreConfiguration, overrides: [String: PluginSettings.Value]
    ) throws {
        var settings = configuration.settings(for: plugin.descriptor)
        settings.values.merge(overrides) { $1 }
        var limits = UploadLimits()
        if let samples = try settings.integer("batch_samples") { limits.samples = max(1, samples) }
        if let bytes = try settings.integer("batch_bytes") { limits.bytes = max(64 << 10, bytes) }
        self.plugin = plugin
        self.settings = settings
        self.limits = limits
    }

    /// A new sink; the caller shuts it down after its last use.
    public func make(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any SampleSink {
        try plugin.make(settings, environment: environment)
    }
}
