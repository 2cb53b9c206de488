/// A sample together with the lane its source put it in.
public struct LanedSample: Hashable, Sendable {
    public let sample: Sample
    public let lane: Lane
    /// The sample's metadata as stored (JSON pairs), rendered when the batch is built rather than
    /// inside the store's write transaction.
    public let metadataJSON: String?

    public init(_ sample: Sample, lane: Lane) {
        self.sample = sample
        self.lane = lane
        self.metadataJSON = sample.metadata.isEmpty ? nil : JSONText.pairs(sample.metadata)
    }
}
