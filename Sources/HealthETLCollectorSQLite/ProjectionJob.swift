import HealthETLCollectorStorage
import HealthETLCore

/// One run of a user's dirty days of a metric, with everything recomputing it reads: made on the
/// storage queue (`Projector.firstJob`), projected off it, and stored back only when no write
/// changed those days in between (`version`, the change feed's newest sequence for them).
struct ProjectionJob: Sendable {
    let user: Int64
    let metric: Int64
    /// The dirty days the job clears, all within `run`.
    let days: [Int64]
    let run: ClosedRange<Int64>
    let samples: [Sample]
    let definition: MetricDefinition
    let priority: SourcePriority
    let version: Int64

    /// The days whose changes can change what the job stores: its run, the day before (the
    /// evening of its first night) and the day after (the morning of the night after its last
    /// day, which it stores too).
    static func versionDays(of run: ClosedRange<Int64>) -> ClosedRange<Int64> {
        (run.lowerBound - 1)...(run.upperBound + 1)
    }

    func project() -> (rollups: [DailyRollup], nights: [SleepNight]?) {
        ProjectionPlan.project(samples, definition: definition, priority: priority, days: run)
    }
}
