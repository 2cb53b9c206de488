import HealthETLCore

/// A `Workout` being read, with the `WorkoutActivity` part open inside it, if any.
struct PendingWorkout {
    var workout: Workout
    var activity: WorkoutActivity?
    var inRoute = false
    /// Inline route points past `RouteResolver.maximumPoints`, counted only.
    private(set) var omittedRoutePoints = 0

    init(workout: Workout) {
        self.workout = workout
    }

    /// Keeps an inline route point while the route has room for it.
    mutating func add(_ point: RoutePoint) {
        if workout.route.count < RouteResolver.maximumPoints {
            workout.route.append(point)
        } else {
            omittedRoutePoints += 1
        }
    }
}
