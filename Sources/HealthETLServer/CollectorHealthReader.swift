import HealthETLCollectorStorage
import HealthETLCore
import HealthETLMCP

/// What `serve --mcp`'s tools read: one user's data on the collector, its projections as the
/// collector keeps them (recomputed first where a batch made them stale). Every read names the
/// user the bearer token belongs to.
struct CollectorHealthReader: HealthDataReader {
    let storage: any CollectorStorage
    let user: String

    let origin = "collector"
    /// Uploads carry samples and deletions, not workouts.
    let holdsWorkouts = false

    func metricSummaries() async throws -> [MetricSummary] {
        try await storage.metricSummaries(user: user)
    }

    func dailyRollups(metric: String, days: ClosedRange<CivilDate>) async throws -> [DailyRollup] {
        try await storage.dailyRollups(user: user, metric: metric, from: days.lowerBound, to: days.upperBound)
            .compactMap(DailyRollup.init)
    }

    func sleepNights(days: ClosedRange<CivilDate>) async throws -> [SleepNight] {
        try await storage.sleepNights(user: user, from: days.lowerBound, to: days.upperBound).compactMap(
            SleepNight.init)
    }

    func workouts(starts: Range<Instant>) async throws -> [WorkoutListing] { [] }

    func samples(metric: String, starts: Range<Instant>, after cursor: SampleCursor?, limit: Int) async throws
        -> [Sample]
    {
        try await storage.samples(
            user: user, metric: metric,
            starts: starts.lowerBound.millisecondsSinceEpoch..<starts.upperBound.millisecondsSinceEpoch,
            after: cursor.map { ($0.start.millisecondsSinceEpoch, $0.id) }, limit: limit)
    }

    func sources() async throws -> SourceSummary {
        SourceSummary(
            sources: try await storage.sourceSummaries(user: user),
            priority: try await storage.sourcePriority(user: user), priorityByMetric: [:])
    }

    func status() async throws -> ReaderStatus {
        let activity = try await storage.activity(user: user)
        return ReaderStatus(
            projections: activity.daysAwaitingRefresh == 0 ? "refreshed" : "refreshing",
            daysAwaitingRefresh: activity.daysAwaitingRefresh, lastImport: nil, lastUpload: nil,
            lastReceived: activity.lastBatch?.description, samples: activity.samples, uploadsPending: nil)
    }
}
