import HealthETLCore

/// A `Record` (or `Correlation`) being read: its attributes, then its children.
struct PendingRecord {
    /// Children a record keeps of each kind (metadata entries, beats). Real records have tens;
    /// more are left out and counted, so a record of any size costs bounded memory.
    static let maximumChildren = 10_000

    /// The record as its attributes gave it; `record` adds the children.
    private var attributed: RawRecord
    /// Gathered here, not in the record: a record's fields are shared, so each append to one of
    /// its arrays would copy the array and every other field.
    private var metadata: [MetadataEntry] = []
    private var series: [SeriesPoint] = []
    /// The start as parsed, for placing HRV beats on the right day.
    var start: Timestamp?
    var end: Timestamp?
    private var omittedChildren = 0

    /// The record with every child kept.
    var record: RawRecord {
        var record = attributed
        if !metadata.isEmpty { record.metadata = metadata }
        if !series.isEmpty { record.series = series }
        return record
    }

    init(record: RawRecord, start: Timestamp?, end: Timestamp?) {
        attributed = record
        self.start = start
        self.end = end
    }

    /// Keeps a metadata entry; `false` the first time one is left out.
    mutating func add(_ entry: MetadataEntry) -> Bool {
        guard metadata.count < Self.maximumChildren else { return omit() }
        metadata.append(entry)
        return true
    }

    /// Keeps a beat; `false` the first time one is left out.
    mutating func add(_ point: SeriesPoint) -> Bool {
        guard series.count < Self.maximumChildren else { return omit() }
        series.append(point)
        return true
    }

    private mutating func omit() -> Bool {
        omittedChildren += 1
        return omittedChildren > 1
    }
}
