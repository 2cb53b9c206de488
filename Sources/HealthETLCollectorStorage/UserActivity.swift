import HealthETLCore

/// How current one user's data on the collector is.
public struct UserActivity: Sendable, Equatable {
    /// When the user's newest batch was received; `nil` before the first.
    public var lastBatch: Instant?
    /// Projection days (metric and day) waiting to be recomputed.
    public var daysAwaitingRefresh: Int
    public var samples: Int

    public init(lastBatch: Instant?, daysAwaitingRefresh: Int, samples: Int) {
        self.lastBatch = lastBatch
        self.daysAwaitingRefresh = daysAwaitingRefresh
        self.samples = samples
    }
}
