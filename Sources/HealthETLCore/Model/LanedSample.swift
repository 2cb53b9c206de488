/// A sample together with the lane its source put it in.
public struct LanedSample: Hashable, Sendable {
    public let sample: Sample
    public let lane: Lane
    /// The sample's metadata as stored (JSON pairs), rendered when the batch is built rather than
    /// inside the store's write transaction.
    public let metadataJSON: String?

    public init(_ sample: Sample, lane: Lane) {
        self.init(sample, lane: lane, metadataJSON: sample.metadata.isEmpty ? nil : JSONText.pairs(sample.metadata))
    }

    /// With its metadata already rendered (a batch reuses the rendering while metadata repeats).
    public init(_ sample: Sample, lane: Lane, metadataJSON: String?) {
        self.sample = sample
        self.lane = lane
        self.metadataJSON = metadataJSON
    }
}
