/// How a record table holds time: a moment (`time`, `zone_offset`) or a span (`start_time`,
/// `start_zone_offset`, `end_time`, `end_zone_offset`); epoch milliseconds UTC, offsets in seconds.
enum HealthConnectRecordShape: Equatable {
    case instant
    case interval

    /// The shape a table's columns give it, or `nil` when it has neither set whole.
    init?(columns: Set<String>) {
        if columns.isSuperset(of: ["start_time", "end_time"]) {
            self = .interval
        } else if columns.contains("time") {
            self = .instant
        } else {
            return nil
        }
    }

    /// The time columns selected, in order: start, its offset, end, its offset.
    var timeColumns: [String] {
        switch self {
        case .instant: ["time", "zone_offset", "time", "zone_offset"]
        case .interval: ["start_time", "start_zone_offset", "end_time", "end_zone_offset"]
        }
    }
}
