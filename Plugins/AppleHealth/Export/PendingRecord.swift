import HealthETLCore

/// A `Record` (or `Correlation`) being read: its attributes, then its children.
struct PendingRecord {
    /// Children a record keeps of each kind (metadata entries, beats). Real records have tens;
    /// more are left out and counted, so a record of any size costs bounded memory.
    static let maximumChildren = 10_000

    var record: RawRecord
    /// The start as parsed, for placing HRV beats on the right day.
    var start: Timestamp?
    var end: Timestamp?
    private var omittedChildren = 0

    init(record: RawRecord, start: Timestamp?, end: Timestamp?) {
        self.record = record
        self.start = start
        self.end = end
    }

    /// Keeps a metadata entry; `false` the first time one is left out.
    mutating func add(_ entry: MetadataEntry) -> Bool {
        guard record.metadata.count < Self.maximumChildren else { return omit() }
        record.metadata.append(entry)
        return true
    }

    /// Keeps a beat; `false` the first time one is left out.
    mutating func add(_ point: SeriesPoint) -> Bool {
        guard record.series.count < Self.maximumChildren else { return omit() }
        record.series.append(point)
        return true
    }

    private mutating func omit() -> Bool {
        omittedChildren += 1
        return omittedChildren > 1
    }
}
