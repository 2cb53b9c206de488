import HealthETLCore
import HealthETLStore

/// What `queue list` shows: the count of batches in each state, and the batches asked for.
public struct UploadQueueListing: Encodable, Sendable {
    public struct Batch: Encodable, Sendable {
        public let batchID: String
        public let tier: Int
        public let state: String
        public let samples: Int
        public let deletions: Int
        public let attempts: Int
        /// When a failed batch is tried again.
        public let nextAttempt: String?
        public let lastError: String?
        public let accepted: Int?
        public let rejected: Int
        public let created: String

        init(_ upload: QueuedUpload) {
            batchID = upload.item.batchID
            tier = upload.item.tier.rawValue
            state = upload.item.state.name
            samples = upload.samples
            deletions = upload.deletions
            attempts = upload.item.attempts
            nextAttempt = upload.item.state == .failed ? upload.item.nextAttempt.description : nil
            lastError = upload.item.lastError
            accepted = upload.accepted
            rejected = upload.rejected
            created = upload.created.description
        }

        enum CodingKeys: String, CodingKey {
            case tier, state, samples, deletions, attempts, accepted, rejected, created
            case batchID = "batch_id"
            case nextAttempt = "next_attempt"
            case lastError = "last_error"
        }
    }

    /// Batches per state name, every state present.
    public let counts: [String: Int]
    public let batches: [Batch]
}
