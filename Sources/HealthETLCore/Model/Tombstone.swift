/// A deletion of a sample: removed from the store and queued for the sinks.
public struct Tombstone: Hashable, Sendable {
    public var sampleID: ContentID
    /// Why it was deleted, e.g. `superseded_by_export`, `deleted_at_source`, `edited`.
    public var reason: String
    /// When the source deleted it.
    public var deletedAt: Instant

    public init(sampleID: ContentID, reason: String, deletedAt: Instant) {
        self.sampleID = sampleID
        self.reason = reason
        self.deletedAt = deletedAt
    }
}
