import HealthETLCore

/// A deletion as the collector API carries it: the sample's id, with its metric and start so
/// the collector finds the row through its (metric, start, id) key.
public struct WireDeletion: Codable, Sendable, Equatable {
    public var id: String
    public var metric: String
    public var start: String

    public init(id: String, metric: String, start: String) {
        self.id = id
        self.metric = metric
        self.start = start
    }

    public init(_ tombstone: Tombstone) {
        self.init(id: tombstone.sampleID.description, metric: tombstone.metric, start: tombstone.start.description)
    }
}
