/// One record as a source adapter read it, before any checking: the normalizer's input.
public struct RawRecord: Hashable, Sendable {
    /// The type as the source names it: a HealthKit identifier, a Health Connect type or a metric id.
    public var type: String
    public var sourceName: String
    public var sourceVersion: String?
    /// The device description with any per-export noise (memory addresses) already removed.
    public var device: String?
    public var unit: String?
    public var value: RawValue
    public var start: RawTime
    public var end: RawTime
    public var metadata: [MetadataEntry]
    /// Points the record carries with it (HRV SDNN beat-to-beat heart rates), times resolved.
    public var series: [SeriesPoint]
    /// A source's summary of a period rather than a measurement (Health Auto Export's summarized
    /// points): stored with the `summarized` flag, ranked below raw samples in the projections.
    public var isSummary: Bool

    public init(
        type: String, sourceName: String, sourceVersion: String? = nil, device: String? = nil,
        unit: String? = nil, value: RawValue, start: RawTime, end: RawTime,
        metadata: [MetadataEntry] = [], series: [SeriesPoint] = [], isSummary: Bool = false
    ) {
        self.type = type
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.unit = unit
        self.value = value
        self.start = start
        self.end = end
        self.metadata = metadata
        self.series = series
        self.isSummary = isSummary
    }

    /// The record as written, as a JSON object: what quarantine keeps.
    public var rawJSON: String {
        var fields: [(String, String?)] = [
            ("type", type), ("sourceName", sourceName), ("sourceVersion", sourceVersion),
            ("device", device), ("unit", unit), ("value", value.asWritten),
            ("startDate", start.asWritten), ("endDate", end.asWritten),
        ]
        fields = fields.filter { $0.1 != nil }
        var text =
            "{"
            + fields.map { "\(JSONText.quoted($0.0)):\(JSONText.quoted($0.1!))" }
            .joined(separator: ",")
        if !metadata.isEmpty {
            text += ",\"metadata\":" + JSONText.pairs(metadata)
        }
        return text + "}"
    }
}
