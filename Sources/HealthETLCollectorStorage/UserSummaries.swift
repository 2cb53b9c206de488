import HealthETLCore

/// A metric one user has samples of: the first and last local start (the start at its offset,
/// UTC without one) and how many.
public struct UserMetricSummary: Sendable, Equatable {
    public var metric: String
    public var firstLocal: Instant
    public var lastLocal: Instant
    public var samples: Int

    public init(metric: String, firstLocal: Instant, lastLocal: Instant, samples: Int) {
        self.metric = metric
        self.firstLocal = firstLocal
        self.lastLocal = lastLocal
        self.samples = samples
    }
}

/// A source one user has samples of: how many, and the devices (sorted) they came from.
public struct UserSourceSummary: Sendable, Equatable {
    public var source: String
    public var samples: Int
    public var devices: [String]

    public init(source: String, samples: Int, devices: [String]) {
        self.source = source
        self.samples = samples
        self.devices = devices
    }
}

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

extension UserSourceSummary {
    /// Rows of (source, device, count), sorted by source, as one summary per source.
    package static func grouping(_ rows: [(source: String, device: String?, samples: Int)]) -> [UserSourceSummary] {
        var summaries: [UserSourceSummary] = []
        for row in rows {
            if summaries.last?.source != row.source {
                summaries.append(UserSourceSummary(source: row.source, samples: 0, devices: []))
            }
            summaries[summaries.count - 1].samples += row.samples
            if let device = row.device { summaries[summaries.count - 1].devices.append(device) }
        }
        return summaries
    }
}
