/// A workout session with everything an export says about it.
public struct Workout: Hashable, Sendable {
    /// Identity over activity type, source, start and end, like a sample's.
    public var id: ContentID
    /// As written, e.g. `HKWorkoutActivityTypeRunning`.
    public var activityType: String
    public var sourceName: String
    public var sourceVersion: String?
    public var device: String?
    public var start: Instant
    public var end: Instant
    public var utcOffsetSeconds: Int32?
    /// Active time (pauses excluded), in seconds.
    public var durationSeconds: Double?
    /// Totals older exports carry as attributes (`totalDistance`, `totalEnergyBurned`, …), as written.
    public var totals: [MetadataEntry]
    public var metadata: [MetadataEntry]
    public var events: [WorkoutEvent]
    public var statistics: [WorkoutStatistic]
    public var activities: [WorkoutActivity]
    public var route: [RoutePoint]
    /// Route files the workout references (`/workout-routes/route_….gpx`), whether or not found.
    public var routeFiles: [String]

    public init(
        activityType: String, sourceName: String, sourceVersion: String? = nil, device: String? = nil,
        start: Instant, end: Instant, utcOffsetSeconds: Int32? = nil, durationSeconds: Double? = nil,
        totals: [MetadataEntry] = [], metadata: [MetadataEntry] = [], events: [WorkoutEvent] = [],
        statistics: [WorkoutStatistic] = [], activities: [WorkoutActivity] = [], route: [RoutePoint] = [],
        routeFiles: [String] = []
    ) {
        self.id = ContentID(
            metric: "workout:" + activityType, source: sourceName, start: start, end: end, value: nil, unit: nil)
        self.activityType = activityType
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.durationSeconds = durationSeconds
        self.totals = totals
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
        self.activities = activities
        self.route = route
        self.routeFiles = routeFiles
    }
}
