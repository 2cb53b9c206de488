/// A stored sample on its way out of the store (`healthetl export`), in the lean form millions
/// of them travel in: names are numbers into the export's `ExportNames`, so copying one touches
/// no reference count. A panel (a blood-pressure reading) carries the component samples it holds.
public struct ExportedSample: Sendable {
    public var id: ContentID
    /// Index of the metric's id in `ExportNames.metrics`.
    public var metric: Int32
    /// Index of the source's name in `ExportNames.sources`.
    public var source: Int32
    /// Index of the device's description in `ExportNames.devices`, or `nil` for none.
    public var device: Int32?
    public var sourceVersion: String?
    public var start: Instant
    public var end: Instant
    /// The UTC offset the source recorded, if any.
    public var utcOffsetSeconds: Int32?
    /// In the metric's canonical unit.
    public var value: Double?
    public var category: String?
    public var flags: SampleFlags
    /// The metadata as stored (a JSON array of `[key, value]` pairs), when the export asked for it.
    public var metadataJSON: String?
    /// A panel's components that share its source, start and end (empty for other samples).
    public var components: [ExportedSample]

    public init(
        id: ContentID, metric: Int32, source: Int32, device: Int32? = nil, sourceVersion: String? = nil,
        start: Instant, end: Instant, utcOffsetSeconds: Int32? = nil, value: Double? = nil, category: String? = nil,
        flags: SampleFlags = [], metadataJSON: String? = nil, components: [ExportedSample] = []
    ) {
        self.id = id
        self.metric = metric
        self.source = source
        self.device = device
        self.sourceVersion = sourceVersion
        self.start = start
        self.end = end
        self.utcOffsetSeconds = utcOffsetSeconds
        self.value = value
        self.category = category
        self.flags = flags
        self.metadataJSON = metadataJSON
        self.components = components
    }
}
