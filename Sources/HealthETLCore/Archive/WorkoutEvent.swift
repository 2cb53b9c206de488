/// A pause, resume, segment, lap or marker inside a workout.
public struct WorkoutEvent: Hashable, Sendable {
    /// As written, e.g. `HKWorkoutEventTypePause`.
    public var type: String
    public var date: Instant
    public var durationSeconds: Double?
    public var metadata: [MetadataEntry]

    public init(type: String, date: Instant, durationSeconds: Double? = nil, metadata: [MetadataEntry] = []) {
        self.type = type
        self.date = date
        self.durationSeconds = durationSeconds
        self.metadata = metadata
    }
}
