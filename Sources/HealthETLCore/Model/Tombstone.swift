/// A deletion of a sample: removed from the store and queued for the sinks.
///
/// It names the sample by its identity fields as well as its id, so the store finds it through
/// its (metric, start, id) index.
public struct Tombstone: Hashable, Sendable {
    public var sampleID: ContentID
    public var metric: String
    public var start: Instant
    /// The sample's end, when the deleting source knows it: kept with the tombstone whether or
    /// not the sample was stored yet.
    public var end: Instant?
    /// The UTC offset written with the sample's start, with `end`.
    public var utcOffsetSeconds: Int32?
    /// Why it was deleted, e.g. `superseded_by_export`, `deleted_at_source`, `edited`.
    public var reason: String
    /// When the source deleted it.
    public var deletedAt: Instant

    public init(
        sampleID: ContentID, metric: String, start: Instant, end: Instant? = nil, reason: String, deletedAt: Instant
    ) {
        self.sampleID = sampleID
        self.metric = metric
        self.start = start
        self.end = end
        self.reason = reason
        self.deletedAt = deletedAt
    }

    /// The tombstone of a stored sample.
    public init(of sample: Sample, reason: String, deletedAt: Instant) {
        self.init(
            sampleID: sample.id, metric: sample.metric, start: sample.start, end: sample.end, reason: reason,
            deletedAt: deletedAt)
        utcOffsetSeconds = sample.utcOffsetSeconds
    }
}
