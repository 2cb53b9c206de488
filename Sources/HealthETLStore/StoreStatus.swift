import HealthETLCore
import HealthETLSQLite

/// What `healthetl status` reports about a store.
public struct StoreStatus: Codable, Equatable, Sendable {
    public struct Samples: Codable, Equatable, Sendable {
        public var total: Int
        public var flagged: Int
        public var byMetric: [String: Int]

        enum CodingKeys: String, CodingKey {
            case total, flagged
            case byMetric = "by_metric"
        }
    }

    public struct Quarantine: Codable, Equatable, Sendable {
        public var total: Int
        public var byReason: [String: Int]

        enum CodingKeys: String, CodingKey {
            case total
            case byReason = "by_reason"
        }
    }

    public struct Cursor: Codable, Equatable, Sendable {
        public var stream: String
        public var lane: String
        public var position: Int64
        public var updatedAt: String

        enum CodingKeys: String, CodingKey {
            case stream, lane, position
            case updatedAt = "updated_at"
        }
    }

    public struct Tombstones: Codable, Equatable, Sendable {
        public var total: Int
    }

    /// Upload batches by queue state, and the last upload run.
    public struct Queue: Codable, Equatable, Sendable {
        public var pending: Int
        public var inFlight: Int
        public var failed: Int
        public var dead: Int
        public var done: Int
        /// Items the sink refused (listed by `healthetl queue`).
        public var rejectedItems: Int
        /// When the last upload run finished; `nil` (JSON `null`) before the first.
        public var lastUpload: String?

        enum CodingKeys: String, CodingKey {
            case pending, failed, dead, done
            case inFlight = "in_flight"
            case rejectedItems = "rejected_items"
            case lastUpload = "last_upload"
        }

        /// Writes `last_upload` as `null` before the first upload, so scripts see one shape.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pending, forKey: .pending)
            try container.encode(inFlight, forKey: .inFlight)
            try container.encode(failed, forKey: .failed)
            try container.encode(dead, forKey: .dead)
            try container.encode(done, forKey: .done)
            try container.encode(rejectedItems, forKey: .rejectedItems)
            try container.encode(lastUpload, forKey: .lastUpload)
        }
    }

    public var store: String
    public var schema: [String]
    public var samples: Samples
    public var quarantine: Quarantine
    public var cursors: [Cursor]
    public var tombstones: Tombstones
    public var dirtyProjectionKeys: Int
    public var importRuns: Int
    public var queue: Queue

    enum CodingKeys: String, CodingKey {
        case store, schema, samples, quarantine, cursors, tombstones, queue
        case dirtyProjectionKeys = "dirty_projection_keys"
        case importRuns = "import_runs"
    }
}
