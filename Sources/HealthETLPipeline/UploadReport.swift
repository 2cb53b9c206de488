import Foundation

/// What one upload or catch-up run did.
public struct UploadReport: Sendable, Equatable, Codable {
    /// Batches formed and queued by this run.
    public var queuedBatches = 0
    public var queuedSamples = 0
    public var queuedDeletions = 0
    /// Attempts made, and how they ended.
    public var attempts = 0
    public var deliveredBatches = 0
    public var acceptedItems = 0
    /// Items the sink refused (kept in the store's rejection list, never counted as delivered).
    public var rejectedItems = 0
    public var failedAttempts = 0
    public var deadBatches = 0
    /// Batches still waiting for a retry when the run ended.
    public var waitingBatches = 0
    /// Whether the store's source priority went to the sink in this run (it goes only when it
    /// changed), and why not when it should have.
    public var sourcePrioritySent = false
    public var sourcePriorityNotSent: String?
    /// The projection refresh that followed the uploads.
    public var projections: ProjectionSync.Report?
    /// The change-feed catch-up that came last: other devices' uploads, in the local projections.
    public var feed: FeedReport?

    public init() {}

    /// Two runs' counts together (the real-time tier adds up its rounds); waiting batches, the
    /// source priority and the projection refresh are the later run's.
    public static func + (lhs: UploadReport, rhs: UploadReport) -> UploadReport {
        var sum = rhs
        sum.queuedBatches += lhs.queuedBatches
        sum.queuedSamples += lhs.queuedSamples
        sum.queuedDeletions += lhs.queuedDeletions
        sum.attempts += lhs.attempts
        sum.deliveredBatches += lhs.deliveredBatches
        sum.acceptedItems += lhs.acceptedItems
        sum.rejectedItems += lhs.rejectedItems
        sum.failedAttempts += lhs.failedAttempts
        sum.deadBatches += lhs.deadBatches
        return sum
    }

    private enum CodingKeys: String, CodingKey {
        case queuedBatches = "queued_batches"
        case queuedSamples = "queued_samples"
        case queuedDeletions = "queued_deletions"
        case attempts
        case deliveredBatches = "delivered_batches"
        case acceptedItems = "accepted_items"
        case rejectedItems = "rejected_items"
        case failedAttempts = "failed_attempts"
        case deadBatches = "dead_batches"
        case waitingBatches = "waiting_batches"
        case sourcePrioritySent = "source_priority_sent"
        case sourcePriorityNotSent = "source_priority_not_sent"
        case projections, feed
    }
}

extension UploadReport {
    /// The report as the JSON recorded with its upload run.
    public func jsonText() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }
}
