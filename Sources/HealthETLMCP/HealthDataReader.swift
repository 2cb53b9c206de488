import HealthETLCore

/// What the MCP tools read, from the device's own store (`healthetl mcp`) or from one user's data
/// on the collector (`serve --mcp`). Every read is bounded by its arguments: a range of days, a
/// page of samples.
public protocol HealthDataReader: Sendable {
    /// Where the answers come from, as the tools say it: `store` or `collector`.
    var origin: String { get }

    /// Each metric with samples: its first and last local day and how many samples it has.
    func metricSummaries() async throws -> [MetricSummary]

    /// A metric's daily rollups (by source priority) for the local days of `days` that have data.
    func dailyRollups(metric: String, days: ClosedRange<CivilDate>) async throws -> [DailyRollup]

    /// The sleep nights ending on the mornings of `days`.
    func sleepNights(days: ClosedRange<CivilDate>) async throws -> [SleepNight]

    /// Whether workouts are kept here: the collector receives samples only, so its MCP server
    /// lists no `workouts` tool.
    var holdsWorkouts: Bool { get }

    /// Workouts that start within `starts`, oldest first.
    func workouts(starts: Range<Instant>) async throws -> [WorkoutListing]

    /// Up to `limit` samples of `metric` that start within `starts`, by start and then id, after
    /// `cursor` (the last sample of the previous page) when given.
    func samples(metric: String, starts: Range<Instant>, after cursor: SampleCursor?, limit: Int) async throws
        -> [Sample]

    /// The sources with samples, the devices they wrote from, and the source priority in force.
    func sources() async throws -> SourceSummary

    /// How fresh the answers are: the last import and upload here, or the collector's feed.
    func status() async throws -> ReaderStatus
}

/// A position in a metric's samples, for reading them a page at a time.
public struct SampleCursor: Sendable, Equatable {
    public var start: Instant
    public var id: ContentID

    public init(start: Instant, id: ContentID) {
        self.start = start
        self.id = id
    }
}
