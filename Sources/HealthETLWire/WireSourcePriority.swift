import HealthETLCore

/// A user's source priority, as `PUT /v1/settings/source-priority` takes it and both of its
/// methods answer: source names, best first, that outrank the default order (manual, watch,
/// phone, other). An empty list means the default order alone.
public struct WireSourcePriority: Codable, Sendable, Equatable {
    public var sources: [String]

    /// More names than anyone has sources; the limit keeps a request and a stored row small.
    public static let maximumSources = 100
    /// Counted in Unicode code points, as JSON Schema's `maxLength` counts them.
    public static let nameLengths = 1...200

    public init(sources: [String]) {
        self.sources = sources
    }

    /// Why the collector would refuse these names, or nil when it takes them. The sentence names
    /// positions, never the names: they may say whose device it is.
    public var problem: String? {
        guard sources.count <= Self.maximumSources else {
            return "sources lists \(sources.count) names; at most \(Self.maximumSources) are allowed"
        }
        var seen = Set<String>()
        for (index, name) in sources.enumerated() {
            guard Self.nameLengths.contains(name.unicodeScalars.count) else {
                return
                    "sources[\(index)] must be \(Self.nameLengths.lowerBound) to \(Self.nameLengths.upperBound) characters long"
            }
            // Swift compares names as the projections match them, so two spellings of one name
            // (composed and decomposed accents) are the same source.
            guard seen.insert(name).inserted else {
                return "sources[\(index)] repeats an earlier name; list each source once"
            }
        }
        return nil
    }

    /// The priority the projections rank sources by.
    public var priority: SourcePriority { SourcePriority(preferred: sources) }
}
