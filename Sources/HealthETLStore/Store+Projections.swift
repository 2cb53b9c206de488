import Foundation
import HealthETLCore
import HealthETLSQLite

/// The local projection tables and the dirty keys that say which of them are out of date.
extension Store {
    /// Dirty keys as metric → days, with the newest mark (a key marked after a refresh started
    /// stays dirty).
    public func dirtyProjectionKeys() throws -> (keys: [String: [CivilDate]], newestMark: Instant?) {
        let statement = try prepared(
            "SELECT m.name, k.day, k.marked_ms FROM dirty_keys AS k JOIN metrics AS m ON m.id = k.metric_id ORDER BY m.name, k.day"
        )
        var keys: [String: [CivilDate]] = [:]
        var newest: Int64?
        while try statement.step() {
            guard let day = CivilDate(text: statement.text(1) ?? "") else { continue }
            keys[statement.text(0) ?? "", default: []].append(day)
            newest = max(newest ?? .min, statement.int64(2))
        }
        return (keys, newest.map { Instant(millisecondsSinceEpoch: $0) })
    }

    /// Marks every day that has a stored rollup dirty, so the next refresh fetches them all
    /// again: the sink recomputes them when its source priority changed.
    public func markEveryProjectionDirty() throws {
        // `WHERE true`: SQLite parses an upsert's ON CONFLICT after a SELECT only behind a WHERE.
        try prepared(
            """
            INSERT INTO dirty_keys(metric_id, day, marked_ms) SELECT metric_id, day, ?1 FROM projection_days WHERE true
            ON CONFLICT(metric_id, day) DO UPDATE SET marked_ms = max(marked_ms, excluded.marked_ms)
            """
        ).run(.integer(now().millisecondsSinceEpoch))
    }

    /// Replaces a metric's rollups for `days` with `rollups` (days the source no longer has are
    /// pruned) and clears the dirty keys of those days marked no later than `markedBefore`.
    public func replaceDailyProjections(
        metric: String, days: ClosedRange<CivilDate>, with rollups: [DailyRollup], origin: String, markedBefore: Instant
    ) throws {
        try connection.writeTransaction {
            try writeDailyProjections(metric: metric, days: days, with: rollups, origin: origin)
            let clean = try prepared(
                "DELETE FROM dirty_keys WHERE metric_id = ?1 AND day BETWEEN ?2 AND ?3 AND marked_ms <= ?4")
            try clean.run(
                .integer(try intern(.metrics, metric)), .text(days.lowerBound.description),
                .text(days.upperBound.description), .integer(markedBefore.millisecondsSinceEpoch))
        }
    }

    /// Replaces the sleep nights `nights` with `fetched`, pruning nights the source no longer has.
    public func replaceSleepProjections(nights: ClosedRange<CivilDate>, with fetched: [SleepNight], origin: String)
        throws
    {
        try connection.writeTransaction { try writeSleepProjections(nights: nights, with: fetched, origin: origin) }
    }

    /// `replaceDailyProjections` inside the caller's transaction, dirty keys left alone.
    func writeDailyProjections(
        metric: String, days: ClosedRange<CivilDate>, with rollups: [DailyRollup], origin: String
    )
        throws
    {
        let now = now()
        let metricID = try intern(.metrics, metric)
        let prune = try prepared("DELETE FROM projection_days WHERE metric_id = ?1 AND day BETWEEN ?2 AND ?3")
        try prune.run(.integer(metricID), .text(days.lowerBound.description), .text(days.upperBound.description))
        let insert = try prepared(
            """
            INSERT INTO projection_days(metric_id, day, sum, avg, min, max, count, latest, sources, coverage_s, computed_at,
                origin, refreshed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
            """)
        for rollup in rollups where days.contains(rollup.day) {
            try insert.run(
                .integer(metricID), .text(rollup.day.description), .optional(rollup.sum), .optional(rollup.average),
                .optional(rollup.minimum), .optional(rollup.maximum), .integer(Int64(rollup.count)),
                .optional(rollup.latest), .text(JSONText.array(rollup.sources)), .real(rollup.coverageSeconds),
                .text((rollup.computedAt ?? now).description), .text(origin), .integer(now.millisecondsSinceEpoch))
        }
    }

    /// `replaceSleepProjections` inside the caller's transaction.
    func writeSleepProjections(nights: ClosedRange<CivilDate>, with fetched: [SleepNight], origin: String) throws {
        let now = now()
        try prepared("DELETE FROM projection_nights WHERE night BETWEEN ?1 AND ?2")
            .run(.text(nights.lowerBound.description), .text(nights.upperBound.description))
        let insert = try prepared(
            """
            INSERT INTO projection_nights(night, source, in_bed_s, asleep_s, core_s, deep_s, rem_s, awake_s, start, end,
                computed_at, origin, refreshed_ms)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
            """)
        for night in fetched where nights.contains(night.night) {
            try insert.run(
                .text(night.night.description), .text(night.source), .real(night.inBedSeconds),
                .real(night.asleepSeconds),
                .real(night.coreSeconds), .real(night.deepSeconds), .real(night.remSeconds),
                .real(night.awakeSeconds),
                .text(night.start.description), .text(night.end.description),
                .text((night.computedAt ?? now).description),
                .text(origin), .integer(now.millisecondsSinceEpoch))
        }
    }

    /// Local rollups of a metric within `days`, with whether each day's key is dirty.
    public func dailyProjections(metric: String, days: ClosedRange<CivilDate>) throws -> [(
        rollup: DailyRollup, origin: String, dirty: Bool
    )] {
        let statement = try prepared(
            """
            SELECT p.day, p.sum, p.avg, p.min, p.max, p.count, p.latest, p.sources, p.coverage_s, p.computed_at, p.origin,
                EXISTS (SELECT 1 FROM dirty_keys AS k WHERE k.metric_id = p.metric_id AND k.day = p.day)
            FROM projection_days AS p JOIN metrics AS m ON m.id = p.metric_id
            WHERE m.name = ?1 AND p.day BETWEEN ?2 AND ?3 ORDER BY p.day
            """)
        try statement.bind(.text(metric), .text(days.lowerBound.description), .text(days.upperBound.description))
        func optional(_ column: Int32) -> Double? { statement.isNull(column) ? nil : statement.double(column) }
        var result: [(DailyRollup, String, Bool)] = []
        while try statement.step() {
            guard let day = CivilDate(text: statement.text(0) ?? "") else { continue }
            let sources = (try? JSONDecoder().decode([String].self, from: Data((statement.text(7) ?? "[]").utf8))) ?? []
            let rollup = DailyRollup(
                metric: metric, day: day, sum: optional(1), average: optional(2), minimum: optional(3),
                maximum: optional(4), count: Int(statement.int64(5)), latest: optional(6), sources: sources,
                coverageSeconds: statement.double(8),
                computedAt: TimestampParser.parse(statement.text(9) ?? "")?.instant)
            result.append((rollup, statement.text(10) ?? "", statement.int64(11) != 0))
        }
        return result
    }

    /// Local sleep nights within `nights`.
    public func sleepProjections(nights: ClosedRange<CivilDate>) throws -> [(night: SleepNight, origin: String)] {
        let statement = try prepared(
            """
            SELECT night, source, in_bed_s, asleep_s, core_s, deep_s, rem_s, awake_s, start, end, computed_at, origin
            FROM projection_nights WHERE night BETWEEN ?1 AND ?2 ORDER BY night
            """)
        try statement.bind(.text(nights.lowerBound.description), .text(nights.upperBound.description))
        var result: [(SleepNight, String)] = []
        func instant(_ column: Int32) -> Instant? { TimestampParser.parse(statement.text(column) ?? "")?.instant }
        while try statement.step() {
            guard let night = CivilDate(text: statement.text(0) ?? ""), let start = instant(8), let end = instant(9)
            else {
                continue
            }
            let stored = SleepNight(
                night: night, source: statement.text(1) ?? "", inBedSeconds: statement.double(2),
                asleepSeconds: statement.double(3), coreSeconds: statement.double(4), deepSeconds: statement.double(5),
                remSeconds: statement.double(6), awakeSeconds: statement.double(7), start: start, end: end,
                computedAt: instant(10))
            result.append((stored, statement.text(11) ?? ""))
        }
        return result
    }
}
