/// A batch a sink is asked to deliver, all-or-nothing.
public struct DeliveryBatch: Sendable {
    /// Derived from the content, stored before the first send, sent as `Idempotency-Key`.
    public var batchID: String
    public var samples: [Sample]
    public var deletions: [Tombstone]

    public init(batchID: String, samples: [Sample], deletions: [Tombstone]) {
        self.batchID = batchID
        self.samples = samples
        self.deletions = deletions
    }
}
