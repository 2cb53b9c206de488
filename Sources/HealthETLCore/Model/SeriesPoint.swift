/// One point of a series carried by a sample, e.g. a heartbeat of an HRV SDNN measurement.
public struct SeriesPoint: Hashable, Sendable {
    public var instant: Instant
    public var value: Double

    public init(instant: Instant, value: Double) {
        self.instant = instant
        self.value = value
    }
}
