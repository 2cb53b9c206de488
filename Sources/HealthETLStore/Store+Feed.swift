import Foundation
import HealthETLCore
import HealthETLSQLite

/// The change feed's cursor, the projection scopes' ETags and the insight days.
extension Store {
    public func feedCursor() throws -> FeedCursor? {
        let statement = try prepared(
            "SELECT endpoint, cursor, head, last_event_ms, applied_ms, rebuilds FROM feed_state WHERE id = 1")
        return try statement.firstRow {
            FeedCursor(
                endpoint: $0.text(0) ?? "", cursor: $0.int64(1), head: $0.int64(2),
                lastEventAt: $0.isNull(3) ? nil : Instant(millisecondsSinceEpoch: $0.int64(3)),
                appliedAt: Instant(millisecondsSinceEpoch: $0.int64(4)), rebuilds: Int($0.int64(5)))
        }
    }

    /// The ETag the scope was last pulled with.
    public func projectionETag(_ scope: ChangeKey) throws -> String? {
        let statement = try prepared("SELECT etag FROM projection_etags WHERE scope = ?1")
        try statement.bind(.text(scope.scopeText))
        return try statement.firstRow { $0.text(0) } ?? nil
    }

    /// Writes the pulled scopes and moves the cursor, all in one transaction: the cursor never
    /// passes a change whose keys were not applied.
    public func applyFeed(_ update: FeedUpdate) throws {
        let now = now()
        try connection.writeTransaction {
            if update.rebuild { try pruneOutside(update.pulls.map(\.scope)) }
            for (scope, answer) in update.pulls {
                guard case .fresh(let data, let etag) = answer else { continue }
                switch (scope, data) {
                case (.daily(let metric, let days), .daily(let rollups)):
                    try writeDailyProjections(metric: metric, days: days, with: rollups, origin: "collector")
                case (.sleep(let nights), .sleep(let fetched)):
                    try writeSleepProjections(nights: nights, with: fetched, origin: "collector")
                case (.insights(let days), .insights(let figures)):
                    try writeInsightDays(days: days, with: figures, origin: "collector", now: now)
                default:
                    throw StoreError.mismatchedProjection(scope: scope.scopeText)
                }
                let text = scope.scopeText
                if let etag {
                    try prepared(
                        "INSERT INTO projection_etags(scope, etag) VALUES (?1, ?2) ON CONFLICT(scope) DO UPDATE SET etag = excluded.etag"
                    ).run(.text(text), .text(etag))
                } else {
                    try prepared("DELETE FROM projection_etags WHERE scope = ?1").run(.text(text))
                }
            }
            try prepared(
                """
                INSERT INTO feed_state(id, endpoint, cursor, head, last_event_ms, applied_ms, rebuilds)
                VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT(id) DO UPDATE SET endpoint = excluded.endpoint, cursor = excluded.cursor,
                    head = excluded.head, last_event_ms = coalesce(excluded.last_event_ms, feed_state.last_event_ms),
                    applied_ms = excluded.applied_ms, rebuilds = feed_state.rebuilds + excluded.rebuilds
                """
            ).run(
                .text(update.endpoint), .integer(update.cursor), .integer(max(update.head, update.cursor)),
                update.lastEventAt.map { .integer($0.millisecondsSinceEpoch) } ?? .null,
                .integer(now.millisecondsSinceEpoch), .integer(update.rebuild ? 1 : 0))
        }
    }

    /// The stored insight days within `days`, by metric and day.
    public func insightDays(days: ClosedRange<CivilDate>) throws -> [InsightDay] {
        let statement = try prepared(
            "SELECT figures FROM projection_insight_days WHERE day BETWEEN ?1 AND ?2 ORDER BY metric, day")
        try statement.bind(.text(days.lowerBound.description), .text(days.upperBound.description))
        var result: [InsightDay] = []
        let decoder = JSONDecoder()
        while try statement.step() {
            result.append(try decoder.decode(InsightDay.self, from: Data((statement.text(0) ?? "").utf8)))
        }
        return result
    }

    private func writeInsightDays(
        days: ClosedRange<CivilDate>, with figures: [InsightDay], origin: String, now: Instant
    )
        throws
    {
        try prepared("DELETE FROM projection_insight_days WHERE day BETWEEN ?1 AND ?2")
            .run(.text(days.lowerBound.description), .text(days.upperBound.description))
        let insert = try prepared(
            "INSERT INTO projection_insight_days(metric, day, figures, origin, refreshed_ms) VALUES (?1, ?2, ?3, ?4, ?5)"
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for day in figures where days.contains(day.day) {
            try insert.run(
                .text(day.metric), .text(day.day.description),
                .text(String(decoding: try encoder.encode(day), as: UTF8.self)), .text(origin),
                .integer(now.millisecondsSinceEpoch))
        }
    }

    /// A rebuild's pruning: drops every projection row and ETag outside the scopes pulled (the
    /// sink has nothing there any more).
    private func pruneOutside(_ scopes: [ChangeKey]) throws {
        try connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS feed_cover(kind TEXT NOT NULL, metric TEXT, first TEXT NOT NULL, last TEXT NOT NULL)"
        )
        try connection.execute("DELETE FROM feed_cover")
        let cover = try prepared("INSERT INTO feed_cover(kind, metric, first, last) VALUES (?1, ?2, ?3, ?4)")
        var kept: [String] = []
        for scope in scopes {
            kept.append(scope.scopeText)
            switch scope {
            case .daily(let metric, let days):
                try cover.run(
                    .text("daily"), .text(metric), .text(days.lowerBound.description),
                    .text(days.upperBound.description))
            case .sleep(let nights):
                try cover.run(
                    .text("sleep"), .null, .text(nights.lowerBound.description), .text(nights.upperBound.description))
            case .insights(let days):
                try cover.run(
                    .text("insights"), .null, .text(days.lowerBound.description), .text(days.upperBound.description))
            case .everything:
                continue
            }
        }
        try connection.execute(
            """
            DELETE FROM projection_days WHERE NOT EXISTS (
                SELECT 1 FROM feed_cover AS c JOIN metrics AS m ON m.name = c.metric
                WHERE c.kind = 'daily' AND m.id = projection_days.metric_id AND projection_days.day BETWEEN c.first AND c.last);
            DELETE FROM projection_nights WHERE NOT EXISTS (
                SELECT 1 FROM feed_cover AS c WHERE c.kind = 'sleep' AND projection_nights.night BETWEEN c.first AND c.last);
            DELETE FROM projection_insight_days WHERE NOT EXISTS (
                SELECT 1 FROM feed_cover AS c
                WHERE c.kind = 'insights' AND projection_insight_days.day BETWEEN c.first AND c.last);
            DELETE FROM feed_cover;
            """)
        let keep = Set(kept)
        var stale: [String] = []
        let etags = try prepared("SELECT scope FROM projection_etags")
        while try etags.step() {
            if let scope = etags.text(0), !keep.contains(scope) { stale.append(scope) }
        }
        etags.reset()
        for scope in stale { try prepared("DELETE FROM projection_etags WHERE scope = ?1").run(.text(scope)) }
    }
}
