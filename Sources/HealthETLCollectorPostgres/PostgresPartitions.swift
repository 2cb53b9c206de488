import HealthETLCore
import PostgresNIO

/// The monthly partitions of `samples` (UTC months of the start), made before a batch needs them,
/// each in a short transaction of its own under an advisory lock on its month, so collectors
/// creating the same month at once wait for one another instead of failing, and no batch
/// transaction ever holds the lock a new partition takes on its parent.
actor PostgresPartitions {
    private var known = Set<Int64>()

    /// Makes sure every month that an instant of `starts` falls in has its partition.
    func ensure(_ starts: some Sequence<Instant>, client: PostgresClient, logger: Logger) async throws {
        var months = Set<Int64>()
        for start in starts { months.insert(Self.month(of: start)) }
        for month in months.subtracting(known).sorted() {
            let (from, to) = Self.bounds(of: month)
            let name = Self.name(of: month)
            try await client.withTransaction(logger: logger) { connection in
                _ = try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(Int64(0x6865_7470_0000_0000) + month))", logger: logger)
                _ = try await connection.query(
                    PostgresQuery(
                        unsafeSQL:
                            "CREATE TABLE IF NOT EXISTS \(name) PARTITION OF samples FOR VALUES FROM (\(from)) TO (\(to))"
                    ),
                    logger: logger)
            }
            known.insert(month)
        }
    }

    /// `samples_2026_01`: the partition of a month.
    static func name(of month: Int64) -> String {
        let (years, months) = month.floorDivided(by: 12)
        return "samples_\(1970 + years)_" + (months < 9 ? "0" : "") + String(months + 1)
    }

    /// Months since January 1970 (negative before).
    static func month(of instant: Instant) -> Int64 {
        let day = instant.utcDay
        return Int64(day.year - 1970) * 12 + Int64(day.month - 1)
    }

    /// The month's first and next month's first millisecond.
    static func bounds(of month: Int64) -> (Int64, Int64) {
        func start(_ month: Int64) -> Int64 {
            let (years, months) = month.floorDivided(by: 12)
            let date = CivilDate(year: Int(1970 + years), month: Int(months) + 1, day: 1)!
            return date.daysSinceEpoch * 86_400_000
        }
        return (start(month), start(month + 1))
    }
}
