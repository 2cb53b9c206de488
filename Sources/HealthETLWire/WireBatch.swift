import HealthETLCore

/// The body of `POST /v1/batches`: stored all-or-nothing, under its id (also the
/// `Idempotency-Key` header).
public struct WireBatch: Codable, Sendable, Equatable {
    public var batchID: String
    public var samples: [WireSample]
    public var deletions: [WireDeletion]

    public init(batchID: String, samples: [WireSample], deletions: [WireDeletion]) {
        self.batchID = batchID
        self.samples = samples
        self.deletions = deletions
    }

    private enum CodingKeys: String, CodingKey {
        case samples, deletions
        case batchID = "batch_id"
    }
}
