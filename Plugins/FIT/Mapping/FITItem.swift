import HealthETLCore

/// What one FIT message becomes: records of catalog metrics, and for a session the workout too.
enum FITItem {
    case record(RawRecord)
    case workout(Workout, record: RawRecord)

    /// When the item ends, which decides its lane.
    var end: Instant? {
        switch self {
        case .record(let record): return record.end.timestamp?.instant
        case .workout(let workout, _): return workout.end
        }
    }
}
