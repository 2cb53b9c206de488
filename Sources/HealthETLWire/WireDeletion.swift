import HealthETLCore

/// A deletion as the collector API carries it: the sample's id, with its metric and start so
/// the collector finds the row through its (metric, start, id) key, and when the source deleted
/// it, which orders it against the sample coming back.
public struct WireDeletion: Codable, Sendable, Equatable {
    public var id: String
    public var metric: String
    public var start: String
    /// When the source deleted the sample; absent from older clients.
    public var deletedAt: String?

    public init(id: String, metric: String, start: String, deletedAt: String? = nil) {
        self.id = id
        self.metric = metric
        self.start = start
        self.deletedAt = deletedAt
    }

    public init(_ tombstone: Tombstone) {
        self.init(
            id: tombstone.sampleID.description, metric: tombstone.metric, start: tombstone.start.description,
            deletedAt: tombstone.deletedAt.description)
    }

    private enum CodingKeys: String, CodingKey {
        case id, metric, start
        case deletedAt = "deleted_at"
    }
}
