/// A sink's answer to a delivered batch.
public struct DeliveryReceipt: Sendable {
    /// Samples and deletions the sink stored.
    public var accepted: Int
    /// Items the sink refused, each with its reason: they are marked, never counted as delivered.
    public var rejected: [ItemRejection]

    public init(accepted: Int, rejected: [ItemRejection] = []) {
        self.accepted = accepted
        self.rejected = rejected
    }
}

/// One item a sink refused.
public struct ItemRejection: Hashable, Sendable {
    public var id: ContentID
    public var reason: String

    public init(id: ContentID, reason: String) {
        self.id = id
        self.reason = reason
    }
}
