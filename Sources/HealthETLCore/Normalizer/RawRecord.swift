/// One record as a source adapter read it, before any checking: the normalizer's input.
public struct RawRecord: Hashable, Sendable, CustomReflectable {
    /// Shared by every copy: a record is copied several times on its way from the reader to the
    /// writer (event, batch, normalizer). Visible to the inlined getters, as `Sample`'s is.
    @usableFromInline var box: SharedFields<Fields>

    /// The type as the source names it: a HealthKit identifier, a Health Connect type or a metric id.
    public var type: String {
        @inlinable get { box.fields.type }
        set { box = box.changed { $0.type = newValue } }
    }
    public var sourceName: String {
        @inlinable get { box.fields.sourceName }
        set { box = box.changed { $0.sourceName = newValue } }
    }
    public var sourceVersion: String? {
        @inlinable get { box.fields.sourceVersion }
        set { box = box.changed { $0.sourceVersion = newValue } }
    }
    /// The device description with any per-export noise (memory addresses) already removed.
    public var device: String? {
        @inlinable get { box.fields.device }
        set { box = box.changed { $0.device = newValue } }
    }
    public var unit: String? {
        @inlinable get { box.fields.unit }
        set { box = box.changed { $0.unit = newValue } }
    }
    public var value: RawValue {
        @inlinable get { box.fields.value }
        set { box = box.changed { $0.value = newValue } }
    }
    public var start: RawTime {
        @inlinable get { box.fields.start }
        set { box = box.changed { $0.start = newValue } }
    }
    public var end: RawTime {
        @inlinable get { box.fields.end }
        set { box = box.changed { $0.end = newValue } }
    }
    public var metadata: [MetadataEntry] {
        @inlinable get { box.fields.metadata }
        set { box = box.changed { $0.metadata = newValue } }
    }
    /// Points the record carries with it (HRV SDNN beat-to-beat heart rates), times resolved.
    public var series: [SeriesPoint] {
        @inlinable get { box.fields.series }
        set { box = box.changed { $0.series = newValue } }
    }
    /// A source's summary of a period rather than a measurement (Health Auto Export's summarized
    /// points): stored with the `summarized` flag, ranked below raw samples in the projections.
    public var isSummary: Bool {
        @inlinable get { box.fields.isSummary }
        set { box = box.changed { $0.isSummary = newValue } }
    }

    public init(
        type: String, sourceName: String, sourceVersion: String? = nil, device: String? = nil,
        unit: String? = nil, value: RawValue, start: RawTime, end: RawTime,
        metadata: [MetadataEntry] = [], series: [SeriesPoint] = [], isSummary: Bool = false
    ) {
        box = SharedFields(
            Fields(
                type: type, sourceName: sourceName, sourceVersion: sourceVersion, device: device, unit: unit,
                value: value, start: start, end: end, metadata: metadata, series: series, isSummary: isSummary))
    }

    public var customMirror: Mirror {
        Mirror(self, children: box.children, displayStyle: .struct)
    }

    @usableFromInline struct Fields: Hashable, Sendable {
        @usableFromInline var type: String
        @usableFromInline var sourceName: String
        @usableFromInline var sourceVersion: String?
        @usableFromInline var device: String?
        @usableFromInline var unit: String?
        @usableFromInline var value: RawValue
        @usableFromInline var start: RawTime
        @usableFromInline var end: RawTime
        @usableFromInline var metadata: [MetadataEntry]
        @usableFromInline var series: [SeriesPoint]
        @usableFromInline var isSummary: Bool
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
