import HealthETLCore

/// One sample as the collector API carries it in `POST /v1/batches` (see Docs/openapi.yaml):
/// canonical units, instants as RFC 3339 text, and only what projections and audits need.
public struct WireSample: Codable, Sendable, Equatable {
    /// 32 hexadecimal digits: the sample's content id.
    public var id: String
    public var metric: String
    public var source: String
    public var sourceVersion: String?
    public var device: String?
    public var start: String
    public var end: String
    /// The UTC offset recorded with the start, in seconds.
    public var utcOffsetSeconds: Int?
    /// The IANA zone the source recorded (HealthKit's `HKTimeZone`), which decides local days.
    public var timeZone: String?
    /// The value in the metric's canonical unit (quantity metrics).
    public var value: Double?
    /// The canonical category value (category metrics).
    public var category: String?
    /// Entered by hand: manual entries outrank devices in the projections.
    public var userEntered: Bool?
    /// The normalizer's flags (`out_of_plausible_range`, …).
    public var flags: [String]?
    /// A sample that came back after it was deleted: when that deletion happened. The collector
    /// takes it over a deletion of that time or earlier, and keeps it from one that arrives late.
    public var restoresDeletionAt: String?

    public init(
        id: String, metric: String, source: String, sourceVersion: String? = nil, device: String? = nil,
        start: String, end: String, utcOffsetSeconds: Int? = nil, timeZone: String? = nil, value: Double? = nil,
        category: String? = nil, userEntered: Bool? = nil, flags: [String]? = nil, restoresDeletionAt: String? = nil
    ) {
        self.id = id
        self.metric = metric
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.timeZone = timeZone
        self.value = value
        self.category = category
        self.userEntered = userEntered
        self.flags = flags
        self.restoresDeletionAt = restoresDeletionAt
    }

    /// A stored sample as the uploaders send it.
    public init(_ sample: Sample) {
        self.init(
            id: sample.id.description, metric: sample.metric, source: sample.sourceName,
            sourceVersion: sample.sourceVersion, device: sample.device, start: sample.start.description,
            end: sample.end.description, utcOffsetSeconds: sample.utcOffsetSeconds.map(Int.init),
            timeZone: sample.timeZone, value: sample.value, category: sample.category,
            userEntered: sample.isUserEntered ? true : nil, flags: sample.flags.isEmpty ? nil : sample.flags.names,
            restoresDeletionAt: sample.restoresDeletionAt?.description)
    }

    private enum CodingKeys: String, CodingKey {
        case id, metric, source, device, start, end, value, category, flags
        case sourceVersion = "source_version"
        case utcOffsetSeconds = "utc_offset_s"
        case timeZone = "time_zone"
        case userEntered = "user_entered"
        case restoresDeletionAt = "restores_deletion_at"
    }
}
