import HealthETLCore
import HealthETLWire

/// What the collector's handlers need from its database. SQLite is the embedded default; a
/// PostgreSQL backend implements the same protocol, and the handlers do not change.
///
/// Every call is scoped to one user: an implementation never reads or writes another user's rows.
public protocol CollectorStorage: Sendable {
    /// Stores a batch all-or-nothing — samples upserted by id, tombstones applied, projection
    /// keys marked dirty, the response kept under the batch id — unless this user already has a
    /// batch with that id: then the first response is returned when `bodyDigest` matches, or
    /// `.differentBody` when it does not.
    func apply(_ batch: ValidatedBatch, user: String, bodyDigest: [UInt8]) async throws -> BatchOutcome

    /// The user's rollups of one metric for local days `from...to`, recomputing dirty days first.
    func dailyRollups(user: String, metric: String, from: CivilDate, to: CivilDate) async throws -> [WireDailyRollup]

    /// The user's sleep nights `from...to`, recomputing dirty nights first.
    func sleepNights(user: String, from: CivilDate, to: CivilDate) async throws -> [WireSleepNight]

    /// The source names, best first, that outrank the default order in the user's projections
    /// (empty until the user sets some).
    func sourcePriority(user: String) async throws -> [String]

    /// Replaces the user's source priority. When it differs from the stored one, every day of
    /// the user's projections is marked dirty, to be recomputed in the new order.
    /// - Returns: whether it changed.
    @discardableResult
    func setSourcePriority(_ sources: [String], user: String) async throws -> Bool

    /// Per metric the user has samples of, the local days they may touch.
    func extent(user: String) async throws -> [WireMetricExtent]

    /// The user's change feed after `since`, at most `limit` changes.
    func changes(user: String, since: Int64, limit: Int) async throws -> FeedRead

    /// The user's newest feed sequence.
    func feedHead(user: String) async throws -> Int64

    /// The newest feed sequence that changed any of `metrics` on `days` (days since 1970-01-01)
    /// or every projection of the user: what a projection's ETag is made from.
    func projectionVersion(user: String, metrics: [String], days: ClosedRange<Int64>) async throws -> Int64

    /// Forgets changes committed before `cutoff`, for every user.
    /// - Returns: how many were forgotten.
    @discardableResult
    func pruneChanges(before cutoff: Instant) async throws -> Int

    /// Recomputes up to `limit` dirty projection keys of any user.
    /// - Returns: how many keys are still dirty.
    func refreshProjections(limit: Int) async throws -> Int

    /// Per metric the user has samples of: its first and last local day and the count.
    func metricSummaries(user: String) async throws -> [MetricSummary]

    /// Per source the user has samples of: the count and the devices they came from.
    func sourceSummaries(user: String) async throws -> [SourceSamples]

    /// Up to `limit` of the user's samples of `metric` starting in `starts` (milliseconds), by
    /// start and id, after `after` when given: one page of a long range.
    func samples(user: String, metric: String, starts: Range<Int64>, after: (start: Int64, id: ContentID)?, limit: Int)
        async throws -> [Sample]

    /// When the user's last batch arrived, how many of their projection days await a refresh,
    /// and how many samples they have.
    func activity(user: String) async throws -> UserActivity
}

/// What storing a batch came to.
public enum BatchOutcome: Sendable, Equatable {
    /// Stored now: the response body (JSON) to send, and the change it made to the user's feed
    /// (nil when it changed no projection).
    case stored(response: [UInt8], change: FeedChange?)
    /// Stored before with the same body: the first response, byte for byte.
    case replayed(response: [UInt8])
    /// Stored before with another body.
    case differentBody
}
