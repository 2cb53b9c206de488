import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite

/// Recomputes the projections of dirty days with the core's calculators — the same code a
/// client runs for offline projections — and keeps the results in the projection tables.
/// Runs on the storage queue, inside the caller's transaction; each user's projections rank
/// sources by that user's priority.
struct Projector: Sendable {
    let catalog: MetricCatalog

    /// Recomputes every dirty day of `user` and `metric` within `days` (all of them when nil),
    /// and clears those keys.
    func refresh(
        user: Int64, metric: Int64, days: ClosedRange<Int64>?, state: StorageState, connection: SQLiteConnection,
        now: Instant
    ) throws {
        let dirty = try dirtyDays(user: user, metric: metric, within: days, connection: connection)
        guard !dirty.isEmpty, let name = state.metricNames[metric],
            let definition = catalog.metric(named: name)?.definition
        else {
            return try clear(user: user, metric: metric, days: dirty, connection: connection)
        }
        let priority = state.priority(user: user)
        // Contiguous runs of days load their samples once.
        for run in ProjectionPlan.runs(of: dirty) {
            let samples = try loadSamples(
                user: user, metric: metric, name: name, days: run,
                longest: state.longestSample(user: user, metric: metric),
                connection: connection)
            let result = ProjectionPlan.project(samples, definition: definition, priority: priority, days: run)
            try replaceDailyRollups(
                result.rollups, user: user, metric: metric, days: run, connection: connection, now: now)
            if let nights = result.nights {
                try replaceSleepNights(
                    nights, user: user, nights: ProjectionPlan.nights(of: run), connection: connection, now: now)
            }
        }
        try clear(user: user, metric: metric, days: dirty, connection: connection)
    }

    /// The first run of `user`'s dirty days of `metric` within `days`, read for projecting off the
    /// queue; nil when none is dirty. Inside the caller's write transaction: the dirty days of a
    /// metric the catalog does not know are cleared here.
    func firstJob(
        user: Int64, metric: Int64, within days: ClosedRange<Int64>, state: StorageState, connection: SQLiteConnection
    ) throws -> ProjectionJob? {
        let dirty = try dirtyDays(user: user, metric: metric, within: days, connection: connection)
        guard let run = ProjectionPlan.runs(of: dirty).first else { return nil }
        guard let name = state.metricNames[metric], let definition = catalog.metric(named: name)?.definition else {
            try clear(user: user, metric: metric, days: dirty, connection: connection)
            return nil
        }
        let samples = try loadSamples(
            user: user, metric: metric, name: name, days: run,
            longest: state.longestSample(user: user, metric: metric), connection: connection)
        return ProjectionJob(
            user: user, metric: metric, days: dirty.filter { run.contains($0) }, run: run, samples: samples,
            definition: definition, priority: state.priority(user: user),
            version: try SQLiteChangeFeed.version(
                user: user, metrics: [metric], days: ProjectionJob.versionDays(of: run), connection: connection))
    }

    /// Stores what `job` projected and clears its days, when no write changed them since it was
    /// read (a batch, a deletion or a new source order moves their version) and they are all
    /// still dirty. Returns false when the caller must recompute the run on the queue instead;
    /// true also when another refresh stored the run meanwhile (from the same samples: rewriting
    /// it would only change its `computed_ms`).
    func store(
        _ result: (rollups: [DailyRollup], nights: [SleepNight]?), of job: ProjectionJob, connection: SQLiteConnection,
        now: Instant
    ) throws -> Bool {
        let version = try SQLiteChangeFeed.version(
            user: job.user, metrics: [job.metric], days: ProjectionJob.versionDays(of: job.run), connection: connection)
        guard version == job.version else { return false }
        let stillDirty = try dirtyDays(user: job.user, metric: job.metric, within: job.run, connection: connection)
        guard stillDirty == job.days else { return stillDirty.isEmpty }
        try replaceDailyRollups(
            result.rollups, user: job.user, metric: job.metric, days: job.run, connection: connection, now: now)
        if let nights = result.nights {
            try replaceSleepNights(
                nights, user: job.user, nights: ProjectionPlan.nights(of: job.run), connection: connection, now: now)
        }
        try clear(user: job.user, metric: job.metric, days: job.days, connection: connection)
        return true
    }

    /// The users, metrics and spans of days of up to `limit` dirty keys.
    func dirtyGroups(limit: Int, connection: SQLiteConnection) throws -> [(
        user: Int64, metric: Int64, days: ClosedRange<Int64>
    )] {
        let statement = try connection.prepare(
            "SELECT user_id, metric_id, min(day), max(day) FROM (SELECT * FROM dirty_days LIMIT ?1) GROUP BY user_id, metric_id"
        )
        try statement.bind(.integer(Int64(limit)))
        var groups: [(user: Int64, metric: Int64, days: ClosedRange<Int64>)] = []
        while try statement.step() {
            groups.append((statement.int64(0), statement.int64(1), statement.int64(2)...statement.int64(3)))
        }
        return groups
    }

    // MARK: steps

    private func dirtyDays(user: Int64, metric: Int64, within days: ClosedRange<Int64>?, connection: SQLiteConnection)
        throws -> [Int64]
    {
        let statement = try connection.prepare(
            "SELECT day FROM dirty_days WHERE user_id = ?1 AND metric_id = ?2 AND day BETWEEN ?3 AND ?4 ORDER BY day")
        try statement.bind(
            .integer(user), .integer(metric), .integer(days?.lowerBound ?? .min), .integer(days?.upperBound ?? .max))
        var result: [Int64] = []
        while try statement.step() { result.append(statement.int64(0)) }
        return result
    }

    private func clear(user: Int64, metric: Int64, days: [Int64], connection: SQLiteConnection) throws {
        let statement = try connection.prepare(
            "DELETE FROM dirty_days WHERE user_id = ?1 AND metric_id = ?2 AND day = ?3")
        for day in days {
            try statement.bind(.integer(user), .integer(metric), .integer(day))
            _ = try statement.execute()
        }
    }

    /// Every sample that can reach into the days (any zone), and for sleep into their nights.
    private func loadSamples(
        user: Int64, metric: Int64, name: String, days: ClosedRange<Int64>, longest: Int64, connection: SQLiteConnection
    ) throws -> [Sample] {
        let window = ProjectionPlan.loadWindow(days: days, longest: longest)
        let statement = try connection.prepare(
            "SELECT \(Self.sampleColumns) FROM samples"
                + " WHERE user_id = ?1 AND metric_id = ?2 AND start_ms >= ?3 AND start_ms < ?4")
        try statement.bind(.integer(user), .integer(metric), .integer(window.lowerBound), .integer(window.upperBound))
        return try Self.samples(of: statement, metric: name, connection: connection)
    }

    /// `ProjectionPlan.sampleColumns` as this storage holds them: its texts as ids into `texts`.
    static let sampleColumns = """
        id, start_ms, end_ms, source_id, version_id, device_id, utc_offset_s, zone_id, value, category, user_entered,
        flags
        """

    /// Every row of a bound statement selecting `sampleColumns`, as samples.
    static func samples(of statement: SQLiteStatement, metric: String, connection: SQLiteConnection) throws
        -> [Sample]
    {
        var texts = try SampleTexts(connection: connection)
        return try RepeatedText.rows(of: statement) { try sample($0, metric: metric, texts: &texts, categories: &$1) }
    }

    /// The row a statement selecting `sampleColumns` stands on, as a sample: one string per text
    /// id (`texts`), and a run of one category read once (`categories`).
    private static func sample(
        _ statement: SQLiteStatement, metric: String, texts: inout SampleTexts, categories: inout RepeatedText
    ) throws -> Sample {
        ProjectionPlan.sample(
            id: statement.contentID(0), metric: metric, source: try texts.text(3, of: statement) ?? "",
            sourceVersion: try texts.text(4, of: statement), device: try texts.text(5, of: statement),
            start: statement.int64(1), end: statement.int64(2),
            utcOffset: statement.isNull(6) ? nil : Int32(statement.int64(6)),
            timeZone: try texts.text(7, of: statement), value: statement.isNull(8) ? nil : statement.double(8),
            category: categories.text(9, of: statement), userEntered: statement.int64(10) != 0,
            flags: Int(statement.int64(11)))
    }

    private func replaceDailyRollups(
        _ rollups: [DailyRollup], user: Int64, metric: Int64, days: ClosedRange<Int64>, connection: SQLiteConnection,
        now: Instant
    ) throws {
        try connection.prepare(
            "DELETE FROM daily_rollups WHERE user_id = ?1 AND metric_id = ?2 AND day BETWEEN ?3 AND ?4"
        )
        .run(.integer(user), .integer(metric), .integer(days.lowerBound), .integer(days.upperBound))
        let insert = try connection.prepare(
            """
            INSERT INTO daily_rollups(user_id, metric_id, day, sum, avg, min, max, count, latest, sources, coverage_s, computed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """)
        for rollup in rollups where days.contains(rollup.day.daysSinceEpoch) {
            try insert.bind(
                .integer(user), .integer(metric), .integer(rollup.day.daysSinceEpoch), .optional(rollup.sum),
                .optional(rollup.average),
                .optional(rollup.minimum), .optional(rollup.maximum), .integer(Int64(rollup.count)),
                .optional(rollup.latest),
                .text(JSONText.array(rollup.sources)), .real(rollup.coverageSeconds),
                .integer(now.millisecondsSinceEpoch))
            _ = try insert.execute()
        }
    }

    private func replaceSleepNights(
        _ nights: [SleepNight], user: Int64, nights range: ClosedRange<Int64>, connection: SQLiteConnection,
        now: Instant
    ) throws {
        try connection.prepare("DELETE FROM sleep_nights WHERE user_id = ?1 AND night BETWEEN ?2 AND ?3")
            .run(.integer(user), .integer(range.lowerBound), .integer(range.upperBound))
        let insert = try connection.prepare(
            """
            INSERT INTO sleep_nights(user_id, night, source, in_bed_s, asleep_s, core_s, deep_s, rem_s, awake_s,
                start_ms, end_ms, computed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """)
        for night in nights where range.contains(night.night.daysSinceEpoch) {
            try insert.bind(
                .integer(user), .integer(night.night.daysSinceEpoch), .text(night.source), .real(night.inBedSeconds),
                .real(night.asleepSeconds), .real(night.coreSeconds), .real(night.deepSeconds), .real(night.remSeconds),
                .real(night.awakeSeconds), .integer(night.start.millisecondsSinceEpoch),
                .integer(night.end.millisecondsSinceEpoch),
                .integer(now.millisecondsSinceEpoch))
            _ = try insert.execute()
        }
    }
}
