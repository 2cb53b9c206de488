/// A checked record in canonical units: what the store keeps and the uploaders send.
public struct Sample: Hashable, Sendable, CustomReflectable {
    /// Shared by every copy: a sample is copied on every step from the normalizer to the store, and
    /// through the projections' passes. Visible to the inlined getters: called from another module,
    /// a getter returned each text retained; inlined, the text is read from the box in place.
    /// Nothing else reads it (changes go through the setters).
    @usableFromInline var box: SharedFields<Fields>

    public var id: ContentID {
        @inlinable get { box.fields.id }
        set { box = box.changed { $0.id = newValue } }
    }
    /// Catalog metric id.
    public var metric: String {
        @inlinable get { box.fields.metric }
        set { box = box.changed { $0.metric = newValue } }
    }
    public var sourceName: String {
        @inlinable get { box.fields.sourceName }
        set { box = box.changed { $0.sourceName = newValue } }
    }
    public var sourceVersion: String? {
        @inlinable get { box.fields.sourceVersion }
        set { box = box.changed { $0.sourceVersion = newValue } }
    }
    public var device: String? {
        @inlinable get { box.fields.device }
        set { box = box.changed { $0.device = newValue } }
    }
    public var start: Instant {
        @inlinable get { box.fields.start }
        set { box = box.changed { $0.start = newValue } }
    }
    public var end: Instant {
        @inlinable get { box.fields.end }
        set { box = box.changed { $0.end = newValue } }
    }
    /// The UTC offset written next to the start date, if any.
    public var utcOffsetSeconds: Int32? {
        @inlinable get { box.fields.utcOffsetSeconds }
        set { box = box.changed { $0.utcOffsetSeconds = newValue } }
    }
    /// Value in the metric's canonical unit (quantity kinds).
    public var value: Double? {
        @inlinable get { box.fields.value }
        set { box = box.changed { $0.value = newValue } }
    }
    /// Canonical category value (category kind).
    public var category: String? {
        @inlinable get { box.fields.category }
        set { box = box.changed { $0.category = newValue } }
    }
    /// Value and unit as written: part of the identity, kept for audit.
    public var valueAsWritten: String? {
        @inlinable get { box.fields.valueAsWritten }
        set { box = box.changed { $0.valueAsWritten = newValue } }
    }
    public var unitAsWritten: String? {
        @inlinable get { box.fields.unitAsWritten }
        set { box = box.changed { $0.unitAsWritten = newValue } }
    }
    public var flags: SampleFlags {
        @inlinable get { box.fields.flags }
        set { box = box.changed { $0.flags = newValue } }
    }
    public var metadata: [MetadataEntry] {
        @inlinable get { box.fields.metadata }
        set { box = box.changed { $0.metadata = newValue } }
    }
    public var series: [SeriesPoint] {
        @inlinable get { box.fields.series }
        set { box = box.changed { $0.series = newValue } }
    }
    /// Set when the sample came back at the source after it was deleted there: when that
    /// deletion happened. It outranks that deletion, and any earlier one, wherever both arrive.
    public var restoresDeletionAt: Instant? {
        @inlinable get { box.fields.restoresDeletionAt }
        set { box = box.changed { $0.restoresDeletionAt = newValue } }
    }

    public init(
        id: ContentID, metric: String, sourceName: String, sourceVersion: String? = nil,
        device: String? = nil, start: Instant, end: Instant, utcOffsetSeconds: Int32? = nil,
        value: Double? = nil, category: String? = nil, valueAsWritten: String? = nil,
        unitAsWritten: String? = nil, flags: SampleFlags = [], metadata: [MetadataEntry] = [],
        series: [SeriesPoint] = []
    ) {
        box = SharedFields(
            Fields(
                id: id, metric: metric, sourceName: sourceName, sourceVersion: sourceVersion, device: device,
                start: start, end: end, utcOffsetSeconds: utcOffsetSeconds, value: value, category: category,
                valueAsWritten: valueAsWritten, unitAsWritten: unitAsWritten, flags: flags, metadata: metadata,
                series: series, restoresDeletionAt: nil))
    }

    public var customMirror: Mirror {
        Mirror(self, children: box.children, displayStyle: .struct)
    }

    @usableFromInline struct Fields: Hashable, Sendable {
        @usableFromInline var id: ContentID
        @usableFromInline var metric: String
        @usableFromInline var sourceName: String
        @usableFromInline var sourceVersion: String?
        @usableFromInline var device: String?
        @usableFromInline var start: Instant
        @usableFromInline var end: Instant
        @usableFromInline var utcOffsetSeconds: Int32?
        @usableFromInline var value: Double?
        @usableFromInline var category: String?
        @usableFromInline var valueAsWritten: String?
        @usableFromInline var unitAsWritten: String?
        @usableFromInline var flags: SampleFlags
        @usableFromInline var metadata: [MetadataEntry]
        @usableFromInline var series: [SeriesPoint]
        @usableFromInline var restoresDeletionAt: Instant?
    }
}
