/// A workout's total or summary of one quantity (`sum` for cumulative types, else average/min/max).
public struct WorkoutStatistic: Hashable, Sendable {
    /// The quantity type as written, e.g. `HKQuantityTypeIdentifierDistanceWalkingRunning`.
    public var type: String
    public var start: Instant?
    public var end: Instant?
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var unit: String?

    public init(
        type: String, start: Instant? = nil, end: Instant? = nil, sum: Double? = nil,
        average: Double? = nil, minimum: Double? = nil, maximum: Double? = nil, unit: String? = nil
    ) {
        self.type = type
        self.start = start
        self.end = end
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
    }
}
