import HealthETLCore

/// The collector's answer to a batch: what it stored, and each item it refused with the reason.
public struct WireBatchResponse: Codable, Sendable, Equatable {
    public var batchID: String
    /// Samples stored (new or updated).
    public var accepted: Int
    /// Deletions applied (including those of samples the collector never had).
    public var deleted: Int
    public var rejected: [WireRejection]

    public init(batchID: String, accepted: Int, deleted: Int, rejected: [WireRejection]) {
        self.batchID = batchID
        self.accepted = accepted
        self.deleted = deleted
        self.rejected = rejected
    }

    private enum CodingKeys: String, CodingKey {
        case accepted, deleted, rejected
        case batchID = "batch_id"
    }
}

/// One refused item of a batch.
public struct WireRejection: Codable, Sendable, Equatable {
    /// `sample` or `deletion`.
    public var item: String
    /// Its position in the batch's `samples` or `deletions`.
    public var index: Int
    public var id: String
    /// A stable snake_case reason, e.g. `unknown_metric`, `value_above_hard_limit`.
    public var reason: String

    public init(item: String, index: Int, id: String, reason: String) {
        self.item = item
        self.index = index
        self.id = id
        self.reason = reason
    }
}
