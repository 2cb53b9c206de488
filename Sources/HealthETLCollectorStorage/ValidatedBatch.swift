import HealthETLCore
import HealthETLWire

/// A batch checked against the catalog's hard rules: what will be stored, and what was refused.
public struct ValidatedBatch: Sendable {
    public let id: String
    public let samples: [Sample]
    /// Each stored sample's position in the request's `samples`, for rejections made later.
    public let sampleIndexes: [Int]
    public let deletions: [Tombstone]
    public let rejections: [WireRejection]

    public init(
        id: String, samples: [Sample], sampleIndexes: [Int], deletions: [Tombstone], rejections: [WireRejection]
    ) {
        self.id = id
        self.samples = samples
        self.sampleIndexes = sampleIndexes
        self.deletions = deletions
        self.rejections = rejections
    }
}
