import HealthETLCore

/// What one point or section item of a Health Auto Export file becomes, before its lane is chosen.
enum HAEItem: Equatable {
    case record(RawRecord)
    /// A blood-pressure reading: the correlation and its two components.
    case correlation(RawRecord, components: [RawRecord])
    case workout(Workout)

    /// When the item ends, which decides its lane; `nil` when its date is unreadable.
    var end: Instant? {
        switch self {
        case .record(let record), .correlation(let record, _): record.end.timestamp?.instant
        case .workout(let workout): workout.end
        }
    }

    /// The source events the item is, in `lane`.
    func events(in lane: Lane) -> [SourceEvent] {
        switch self {
        case .record(let record): [.record(record, lane: lane)]
        case .correlation(let panel, let components):
            [.correlation(panel, lane: lane)] + components.map { .correlationComponent($0, lane: lane) }
        case .workout(let workout): [.workout(workout, lane: lane)]
        }
    }
}
