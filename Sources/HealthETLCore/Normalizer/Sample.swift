/// A checked record in canonical units: what the store keeps and the uploaders send.
public struct Sample: Hashable, Sendable {
    public var id: ContentID
    /// Catalog metric id.
    public var metric: String
    public var sourceName: String
    public var sourceVersion: String?
    public var device: String?
    public var start: Instant
    public var end: Instant
    /// The UTC offset written next to the start date, if any.
    public var utcOffsetSeconds: Int32?
    /// Value in the metric's canonical unit (quantity kinds).
    public var value: Double?
    /// Canonical category value (category kind).
    public var category: String?
    /// Value and unit as written: part of the identity, kept for audit.
    public var valueAsWritten: String?
    public var unitAsWritten: String?
    public var flags: SampleFlags
    public var metadata: [MetadataEntry]
    public var series: [SeriesPoint]
    /// Set when the sample came back at the source after it was deleted there: when that
    /// deletion happened. It outranks that deletion, and any earlier one, wherever both arrive.
    public var restoresDeletionAt: Instant?

    public init(
        id: ContentID, metric: String, sourceName: String, sourceVersion: String? = nil,
        device: String? = nil, start: Instant, end: Instant, utcOffsetSeconds: Int32? = nil,
        value: Double? = nil, category: String? = nil, valueAsWritten: String? = nil,
        unitAsWritten: String? = nil, flags: SampleFlags = [], metadata: [MetadataEntry] = [],
        series: [SeriesPoint] = []
    ) {
        self.id = id
        self.metric = metric
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.value = value
        self.category = category
        self.valueAsWritten = valueAsWritten
        self.unitAsWritten = unitAsWritten
        self.flags = flags
        self.metadata = metadata
        self.series = series
    }
}
