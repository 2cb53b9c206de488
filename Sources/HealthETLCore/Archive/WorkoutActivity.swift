/// One part of a multi-part workout (2025 exports nest `WorkoutActivity` inside `Workout`).
public struct WorkoutActivity: Hashable, Sendable {
    public var activityType: String?
    public var start: Instant
    public var end: Instant
    public var durationSeconds: Double?
    public var metadata: [MetadataEntry]
    public var events: [WorkoutEvent]
    public var statistics: [WorkoutStatistic]

    public init(
        activityType: String?, start: Instant, end: Instant, durationSeconds: Double? = nil,
        metadata: [MetadataEntry] = [], events: [WorkoutEvent] = [], statistics: [WorkoutStatistic] = []
    ) {
        self.activityType = activityType
        self.start = start
        self.end = end
        self.durationSeconds = durationSeconds
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
    }
}
