import HealthETLCore

/// Where this store follows a collector's change feed: every change up to `cursor` is applied.
public struct FeedCursor: Sendable, Equatable {
    /// The collector the cursor belongs to: another one starts from a rebuild.
    public let endpoint: String
    public let cursor: Int64
    /// The feed's newest sequence as last seen; `head − cursor` changes are not applied yet.
    public let head: Int64
    /// When the last change event arrived.
    public let lastEventAt: Instant?
    /// When the last update was applied.
    public let appliedAt: Instant
    /// How often the projections were rebuilt from scratch (first follow, cursor past retention).
    public let rebuilds: Int
}
