/// A stretch of a workout the person paused, in seconds since the epoch.
struct WorkoutPause {
    let pausedAt: Int64
    let resumedAt: Int64
}
