/// The local days a metric of the user may have projections on (`GET /v1/projections/extent`):
/// from the first sample's start to the last sample's end, in any zone.
public struct WireMetricExtent: Codable, Sendable, Equatable {
    public var metric: String
    /// YYYY-MM-DD.
    public var first: String
    public var last: String

    public init(metric: String, first: String, last: String) {
        self.metric = metric
        self.first = first
        self.last = last
    }
}
