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

    /// Where `follow`, `upload` and `sync` have followed the collector's change feed to.
    public struct Feed: Codable, Equatable, Sendable {
        /// The collector followed; nil (JSON `null`, like every field here) before the first catch-up.
        public var endpoint: String?
        public var cursor: Int64?
        /// The feed's newest sequence as last seen, and how many changes the cursor is behind it.
        public var head: Int64?
        public var behind: Int64?
        /// When the last change event arrived (live `follow` only), and when the projections were
        /// last brought up to date.
        public var lastEvent: String?
        public var lastApplied: String?
        /// Seconds since the last application.
        public var lagSeconds: Double?
        public var rebuilds: Int

        enum CodingKeys: String, CodingKey {
            case endpoint, cursor, head, behind, rebuilds
            case lastEvent = "last_event"
            case lastApplied = "last_applied"
            case lagSeconds = "lag_s"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(endpoint, forKey: .endpoint)
            try container.encode(cursor, forKey: .cursor)
            try container.encode(head, forKey: .head)
            try container.encode(behind, forKey: .behind)
            try container.encode(lastEvent, forKey: .lastEvent)
            try container.encode(lastApplied, forKey: .lastApplied)
            try container.encode(lagSeconds, forKey: .lagSeconds)
            try container.encode(rebuilds, forKey: .rebuilds)
        }
    }

    /// Workouts stored, and how many another source also recorded (a watch's run synced into
    /// Apple Health by the vendor's app): listed and counted once, as the better-ranked source's.
    public struct Workouts: Codable, Equatable, Sendable {
        public var total: Int
        public var matchedAcrossSources: Int

        enum CodingKeys: String, CodingKey {
            case total
            case matchedAcrossSources = "matched_across_sources"
        }
    }

    public var store: String
    public var schema: [String]
    public var samples: Samples
    public var quarantine: Quarantine
    public var cursors: [Cursor]
    public var tombstones: Tombstones
    public var workouts: Workouts
    public var dirtyProjectionKeys: Int
    public var importRuns: Int
    public var queue: Queue
    public var feed: Feed

    enum CodingKeys: String, CodingKey {
        case store, schema, samples, quarantine, cursors, tombstones, workouts, queue, feed
        case dirtyProjectionKeys = "dirty_projection_keys"
        case importRuns = "import_runs"
    }
}
