import HealthETLCore

/// The daily rollups and sleep nights the store's MCP reader has computed, per metric and day,
/// kept while the store and the source priority are as they were: an assistant asks about the
/// same days again and again, and a year of heart rate is a second's work to compute. A commit
/// by any other connection changes SQLite's `data_version`, and that empties the cache.
struct ProjectionCache {
    /// What the figures were computed from.
    struct Basis: Equatable {
        let dataVersion: Int64
        let priority: [String]
        let sourcesByMetric: [String: [String]]
    }

    /// Days held at most, over every metric and the nights; past it the cache starts again
    /// (a rollup is a few hundred bytes: this bounds the cache to a few megabytes).
    static let capacity = 20_000

    private var basis: Basis?
    /// Per metric and day: the rollup, or `nil` for a day computed without data.
    private var rollups: [String: [CivilDate: DailyRollup?]] = [:]
    private var nights: [CivilDate: SleepNight?] = [:]
    private var held = 0

    /// Forgets everything unless `basis` is what the held figures were computed from.
    mutating func keep(for basis: Basis) {
        guard basis != self.basis else { return }
        self = ProjectionCache()
        self.basis = basis
    }

    /// The held rollups of `days`, and the runs of days not computed yet.
    func rollups(_ metric: String, _ days: ClosedRange<CivilDate>) -> (
        held: [DailyRollup], missing: [ClosedRange<CivilDate>]
    ) {
        let known = rollups[metric] ?? [:]
        return Self.split(days, known)
    }

    func nights(_ days: ClosedRange<CivilDate>) -> (held: [SleepNight], missing: [ClosedRange<CivilDate>]) {
        Self.split(days, nights)
    }

    mutating func add(_ computed: [DailyRollup], metric: String, days: ClosedRange<CivilDate>) {
        make(room: Self.count(days))
        var known = rollups[metric] ?? [:]
        for day in Self.each(days) { known[day] = .some(nil) }
        for rollup in computed { known[rollup.day] = rollup }
        rollups[metric] = known
    }

    mutating func add(_ computed: [SleepNight], days: ClosedRange<CivilDate>) {
        make(room: Self.count(days))
        for day in Self.each(days) { nights[day] = .some(nil) }
        for night in computed { nights[night.night] = night }
    }

    private mutating func make(room days: Int) {
        if held + days > Self.capacity {
            let basis = self.basis
            self = ProjectionCache()
            self.basis = basis
        }
        held += days
    }

    /// What `known` holds of `days` in day order, and the runs of days it lacks.
    private static func split<Value>(_ days: ClosedRange<CivilDate>, _ known: [CivilDate: Value?]) -> (
        held: [Value], missing: [ClosedRange<CivilDate>]
    ) {
        var held: [Value] = []
        var missing: [ClosedRange<CivilDate>] = []
        var runStart: CivilDate?
        for day in each(days) {
            if let entry = known[day] {
                if let start = runStart {
                    missing.append(start...day.adding(days: -1))
                    runStart = nil
                }
                if let value = entry { held.append(value) }
            } else if runStart == nil {
                runStart = day
            }
        }
        if let start = runStart { missing.append(start...days.upperBound) }
        return (held, missing)
    }

    private static func each(_ days: ClosedRange<CivilDate>) -> [CivilDate] {
        (0..<Int64(count(days))).map { days.lowerBound.adding(days: $0) }
    }

    private static func count(_ days: ClosedRange<CivilDate>) -> Int {
        Int(days.upperBound.daysSinceEpoch - days.lowerBound.daysSinceEpoch + 1)
    }
}
