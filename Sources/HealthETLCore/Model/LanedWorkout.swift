/// A workout together with the lane its source put it in.
public struct LanedWorkout: Hashable, Sendable {
    public var workout: Workout
    public var lane: Lane

    public init(_ workout: Workout, lane: Lane) {
        self.workout = workout
        self.lane = lane
    }
}
