/// One workout as the report lists it: what, when, how long, and its headline totals.
public struct WorkoutListing: Sendable, Equatable {
    /// As stored, e.g. `HKWorkoutActivityTypeRunning` or `running`.
    public var activityType: String
    public var sourceName: String
    /// The device as stored (`Garmin fenix5 (watch)`), which ranks the source.
    public var device: String?
    public var start: Instant
    public var end: Instant
    public var utcOffsetSeconds: Int32?
    /// Active time, pauses excluded (`nil` when the source gave none: end − start then).
    public var durationSeconds: Double?
    /// Active energy, with the unit as written.
    public var energy: (value: Double, unit: String)?
    /// Distance, with the unit as written.
    public var distance: (value: Double, unit: String)?
    public var averageHeartRate: Double?

    public init(
        activityType: String, sourceName: String, device: String? = nil, start: Instant, end: Instant,
        utcOffsetSeconds: Int32?,
        durationSeconds: Double?, energy: (value: Double, unit: String)? = nil,
        distance: (value: Double, unit: String)? = nil, averageHeartRate: Double? = nil
    ) {
        self.activityType = activityType
        self.sourceName = sourceName
        self.device = device
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.durationSeconds = durationSeconds
        self.energy = energy
        self.distance = distance
        self.averageHeartRate = averageHeartRate
    }

    public static func == (lhs: WorkoutListing, rhs: WorkoutListing) -> Bool {
        lhs.activityType == rhs.activityType && lhs.sourceName == rhs.sourceName && lhs.device == rhs.device
            && lhs.start == rhs.start
            && lhs.end == rhs.end && lhs.durationSeconds == rhs.durationSeconds
            && lhs.energy?.value == rhs.energy?.value && lhs.distance?.value == rhs.distance?.value
            && lhs.averageHeartRate == rhs.averageHeartRate
    }
}
