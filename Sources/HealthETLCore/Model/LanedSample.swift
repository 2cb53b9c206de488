/// A sample together with the lane its source put it in.
public struct LanedSample: Hashable, Sendable {
    public var sample: Sample
    public var lane: Lane

    public init(_ sample: Sample, lane: Lane) {
        self.sample = sample
        self.lane = lane
    }
}
