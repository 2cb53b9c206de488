import HealthETLCore

/// A `Record` (or `Correlation`) being read: its attributes, then its children.
struct PendingRecord {
    var record: RawRecord
    /// The start as parsed, for placing HRV beats on the right day.
    var start: Timestamp?
    var end: Timestamp?
}
