import HealthETLCore
import HealthETLSQLite

extension Store {
    /// Workouts that start within `starts`, oldest first, with their headline statistics.
    public func workoutListings(starts: Range<Instant>) throws -> [WorkoutListing] {
        let statement = try prepared(
            """
            SELECT w.activity_type, so.name, w.start_ms, w.end_ms, w.utc_offset_s, w.duration_s,
                e.sum, e.unit, d.sum, d.unit,
                (SELECT h.average FROM workout_statistics h
                 WHERE h.workout_id = w.id AND h.part = 0 AND (h.type LIKE '%HeartRate' OR h.type = 'heart_rate')
                 LIMIT 1),
                dv.description
            FROM workouts w JOIN sources so ON so.id = w.source_id
            LEFT JOIN devices dv ON dv.id = w.device_id
            LEFT JOIN workout_statistics e ON e.workout_id = w.id AND e.part = 0 AND e.seq = (SELECT x.seq FROM workout_statistics x
                WHERE x.workout_id = w.id AND x.part = 0
                    AND (x.type LIKE '%ActiveEnergyBurned' OR x.type = 'total_calories') LIMIT 1)
            LEFT JOIN workout_statistics d ON d.workout_id = w.id AND d.part = 0 AND d.seq = (SELECT x.seq FROM workout_statistics x
                WHERE x.workout_id = w.id AND x.part = 0 AND x.type LIKE '%Distance%' LIMIT 1)
            WHERE w.start_ms >= ?1 AND w.start_ms < ?2 ORDER BY w.start_ms
            """)
        try statement.bind(
            .integer(starts.lowerBound.millisecondsSinceEpoch), .integer(starts.upperBound.millisecondsSinceEpoch))
        var listings: [WorkoutListing] = []
        while try statement.step() {
            func measured(_ value: Int32, _ unit: Int32) -> (value: Double, unit: String)? {
                statement.isNull(value) ? nil : (statement.double(value), statement.text(unit) ?? "")
            }
            listings.append(
                WorkoutListing(
                    activityType: statement.text(0) ?? "", sourceName: statement.text(1) ?? "",
                    device: statement.text(11), start: Instant(millisecondsSinceEpoch: statement.int64(2)),
                    end: Instant(millisecondsSinceEpoch: statement.int64(3)),
                    utcOffsetSeconds: statement.isNull(4) ? nil : Int32(statement.int64(4)),
                    durationSeconds: statement.isNull(5) ? nil : statement.double(5),
                    energy: measured(6, 7), distance: measured(8, 9),
                    averageHeartRate: statement.isNull(10) ? nil : statement.double(10)))
        }
        return listings
    }

    /// One pass over the samples whose local day (the start at its recorded offset, UTC without
    /// one) is in `days`: how many each source has per day, and how many a flag asks a person to
    /// review, by flag name (a sample with two flags counts under both).
    public func sampleCounts(days: ClosedRange<CivilDate>) throws -> (
        coverage: [SourceDayCount], flagged: [String: Int]
    ) {
        // Every start any offset can put on one of the days.
        let starts = DailyRollupCalculator.sampleWindow(for: days)
        let statement = try prepared(
            "SELECT source_id, start_ms + coalesce(utc_offset_s, 0) * 1000, flags FROM samples WHERE start_ms >= ?1 AND start_ms < ?2"
        )
        try statement.bind(
            .integer(starts.lowerBound.millisecondsSinceEpoch), .integer(starts.upperBound.millisecondsSinceEpoch))
        // Counted in Swift: a GROUP BY over a computed day would sort every row.
        // Keyed by source number and day in one integer: one hash per row.
        var perSourceDay: [Int64: Int] = [:]
        var flaggedByValue: [Int: Int] = [:]
        let review = SampleFlags.review.rawValue
        let (first, last) = (days.lowerBound.daysSinceEpoch, days.upperBound.daysSinceEpoch)
        while try statement.step() {
            let day = statement.int64(1).floorDivided(by: 86_400_000).quotient
            guard day >= first && day <= last else { continue }
            perSourceDay[statement.int64(0) << 32 | (day & 0xFFFF_FFFF), default: 0] += 1
            let flags = Int(statement.int64(2)) & review
            if flags != 0 { flaggedByValue[flags, default: 0] += 1 }
        }
        let sources = Dictionary(
            try numberedNames("SELECT id, name FROM sources"), uniquingKeysWith: { first, _ in first })
        let coverage = perSourceDay.map { key, count in
            SourceDayCount(
                source: sources[key >> 32] ?? "", day: CivilDate(daysSinceEpoch: Int64(Int32(truncatingIfNeeded: key))),
                samples: count)
        }
        .sorted { ($0.source, $0.day) < ($1.source, $1.day) }
        var flagged: [String: Int] = [:]
        for (flags, count) in flaggedByValue {
            for name in SampleFlags(rawValue: flags).names { flagged[name, default: 0] += count }
        }
        return (coverage, flagged)
    }

    /// The first and the last local day with a sample (the start at its recorded offset), or
    /// `nil` for an empty store.
    public func sampleLocalDays() throws -> ClosedRange<CivilDate>? {
        let statement = try prepared(
            """
            SELECT min(start_ms + coalesce(utc_offset_s, 0) * 1000), max(start_ms + coalesce(utc_offset_s, 0) * 1000)
            FROM samples
            """)
        return try statement.firstRow { row -> ClosedRange<CivilDate>? in
            guard !row.isNull(0) else { return nil }
            let first = Instant(millisecondsSinceEpoch: row.int64(0)).utcDay
            let last = Instant(millisecondsSinceEpoch: row.int64(1)).utcDay
            return first...last
        } ?? nil
    }

    /// Records kept aside, by reason, over every import.
    public func quarantineCounts() throws -> [String: Int] {
        try counts("SELECT reason, count(*) FROM quarantine GROUP BY reason")
    }
}
