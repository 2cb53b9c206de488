/// The shape of one day: the nights around it, how active it is, its workout.
struct DayPlan {
    let day: Int
    /// Going to bed the evening before (the night that ends this morning).
    let sleepStart: Int64
    let wake: Int64
    /// Going to bed this evening.
    let bedNext: Int64
    /// How active the day is, around 1.
    let activity: Double
    let workout: WorkoutPlan?
}
