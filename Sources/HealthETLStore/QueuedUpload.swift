import HealthETLCore
import HealthETLSQLite

/// A batch in the upload queue with what it holds, for `queue` listings and the uploaders.
public struct QueuedUpload: Sendable, Equatable {
    public var item: QueueItem
    public var samples: Int
    public var deletions: Int
    public var accepted: Int?
    public var rejected: Int
    public var created: Instant

    public init(
        item: QueueItem, samples: Int, deletions: Int, accepted: Int? = nil, rejected: Int = 0, created: Instant
    ) {
        self.item = item
        self.samples = samples
        self.deletions = deletions
        self.accepted = accepted
        self.rejected = rejected
        self.created = created
    }
}
