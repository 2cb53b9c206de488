import HealthETLCore
import HealthETLSQLite

extension Store {
    /// The first and last day this store holds of `scope`'s kind of projection: a metric's daily
    /// rollups, the sleep nights or the insight days (whatever days `scope` itself names); `nil`
    /// when it holds none.
    public func projectionSpan(of scope: ChangeKey) throws -> ClosedRange<CivilDate>? {
        // Two subqueries, not min() and max() in one: each is then one look into the primary key.
        let statement: SQLiteStatement
        switch scope {
        case .daily(let metric, _):
            statement = try prepared(
                """
                SELECT (SELECT min(day) FROM projection_days WHERE metric_id = m.id),
                       (SELECT max(day) FROM projection_days WHERE metric_id = m.id)
                FROM metrics AS m WHERE m.name = ?1
                """)
            try statement.bind(.text(CanonicalText.of(metric)))
        case .sleep:
            statement = try prepared(
                "SELECT (SELECT min(night) FROM projection_nights), (SELECT max(night) FROM projection_nights)")
            try statement.bind([])
        case .insights:
            statement = try prepared(
                """
                SELECT (SELECT min(day) FROM projection_insight_days), (SELECT max(day) FROM projection_insight_days)
                """)
            try statement.bind([])
        case .everything:
            return nil
        }
        let texts = try statement.firstRow { ($0.text(0), $0.text(1)) }
        guard let first = texts?.0.flatMap(CivilDate.init(text:)), let last = texts?.1.flatMap(CivilDate.init(text:)),
            first <= last
        else { return nil }
        return first...last
    }
}
