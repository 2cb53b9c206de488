import HealthETLCore

/// A `Workout` being read, with the `WorkoutActivity` part open inside it, if any.
struct PendingWorkout {
    var workout: Workout
    var activity: WorkoutActivity?
    var inRoute = false
}
