import HealthETLCore

/// The JSON shape of `config.json`, including the flat keys files written before plugin sections
/// had (read, never written).
struct ConfigurationDocument: Codable {
    struct Projections: Codable {
        var sourcePriority: [String]?

        enum CodingKeys: String, CodingKey { case sourcePriority = "source_priority" }
    }

    /// The collector's settings as top-level keys, from before plugin sections.
    struct Legacy {
        var collectorValues: [String: PluginSettings.Value] = [:]
        var sourcePriority: [String]?
    }

    var projections: Projections?
    var serve: ServeSettings?
    var sources: [String: [String: PluginSettings.Value]]?
    var sinks: [String: [String: PluginSettings.Value]]?
    var legacy = Legacy()

    init() {}

    private enum CodingKeys: String, CodingKey {
        case projections, sources, sinks, serve
    }

    private struct LegacyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static let legacyCollectorKeys = [
        "endpoint", "token_file", "allow_insecure_http", "batch_samples", "batch_bytes",
    ]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        projections = try container.decodeIfPresent(Projections.self, forKey: .projections)
        sources = try container.decodeIfPresent([String: [String: PluginSettings.Value]].self, forKey: .sources)
        sinks = try container.decodeIfPresent([String: [String: PluginSettings.Value]].self, forKey: .sinks)
        serve = try container.decodeIfPresent(ServeSettings.self, forKey: .serve)
        let flat = try decoder.container(keyedBy: LegacyKey.self)
        for key in Self.legacyCollectorKeys {
            if let value = try flat.decodeIfPresent(PluginSettings.Value.self, forKey: LegacyKey(stringValue: key)) {
                legacy.collectorValues[key] = value
            }
        }
        legacy.sourcePriority = try flat.decodeIfPresent(
            [String].self, forKey: LegacyKey(stringValue: "source_priority"))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(projections, forKey: .projections)
        try container.encodeIfPresent(sources, forKey: .sources)
        try container.encodeIfPresent(sinks, forKey: .sinks)
        try container.encodeIfPresent(serve, forKey: .serve)
    }
}
