import HealthETLCore
import HealthETLSQLite

/// A projection key to recompute: a metric's local day (days since 1970-01-01).
struct DirtyDay: Hashable {
    let metric: Int64
    let day: Int64

    /// No sample spans longer (`SampleBounds`); the cap still guards what older stores hold.
    static let maximumDays = SampleBounds.longestSpanDays

    static func days(touching start: Instant, _ end: Instant) -> ClosedRange<Int64> {
        let first = (start.millisecondsSinceEpoch - LocalZone.widestOffsetMilliseconds).floorDivided(by: 86_400_000)
            .quotient
        let last = (end.millisecondsSinceEpoch + LocalZone.widestOffsetMilliseconds).floorDivided(by: 86_400_000)
            .quotient
        return first...min(last, first + maximumDays)
    }

    static func insert(_ keys: Set<DirtyDay>, user: Int64, connection: SQLiteConnection) throws {
        guard !keys.isEmpty else { return }
        let statement = try connection.prepare(
            "INSERT INTO dirty_days(user_id, metric_id, day) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING")
        for key in keys {
            try statement.bind(.integer(user), .integer(key.metric), .integer(key.day))
            _ = try statement.execute()
        }
    }
}
