import Foundation

/// Personal baselines, trends and insights from daily values — the one implementation the
/// collector (`GET /v1/projections/insights`), `healthetl insights --local` and the report run.
///
/// Deterministic: a day's figures depend only on the values of the day and the 56 days before it.
public struct InsightCalculator: Sendable {
    public let rules: [InsightRule]

    /// The baseline's window: the 28 days before a day.
    public static let baselineDays: Int64 = 28
    /// A baseline needs this many of them to have a value.
    public static let minimumBaselineDays = 14
    /// A streak is counted back at most this far.
    public static let longestStreak = 28
    /// How many days before a day its figures read: a streak of 28 days, each with a 28-day baseline.
    public static let dependencyDays: Int64 = baselineDays + Int64(longestStreak)
    /// A MAD below this share of the median is raised to it: a perfectly regular series would
    /// otherwise make any change infinitely unusual.
    public static let smallestMADShare = 0.01

    public init(rules: [InsightRule] = InsightRule.all) {
        self.rules = rules
    }

    /// The metrics the rules read, sorted.
    public var metrics: [String] { Array(Set(rules.map(\.metric))).sorted() }

    /// The figures of every day in `days` from rollups and nights that cover those days and the
    /// `dependencyDays` before them: what the collector, `insights --local` and the report compute.
    public func days(rollups: [DailyRollup], nights: [SleepNight], in days: ClosedRange<CivilDate>) -> [InsightDay] {
        self.days(values: Self.values(rollups: rollups, nights: nights, rules: rules), in: days)
    }

    /// The figures of every day in `days` that has a value, for each metric of `values`
    /// (metric → day → value), which must hold the `dependencyDays` before `days` too.
    public func days(values: [String: [CivilDate: Double]], in days: ClosedRange<CivilDate>) -> [InsightDay] {
        var result: [InsightDay] = []
        for metric in values.keys.sorted() {
            guard let series = values[metric] else { continue }
            let metricRules = rules.filter { $0.metric == metric }
            let first = days.lowerBound.daysSinceEpoch - Int64(Self.longestStreak)
            // Figures of each day a streak in `days` can reach back to.
            var figures: [Int64: InsightDay] = [:]
            for day in first...days.upperBound.daysSinceEpoch {
                let date = CivilDate(daysSinceEpoch: day)
                guard let value = series[date] else { continue }
                figures[day] = Self.figures(metric: metric, day: date, value: value, series: series)
            }
            for day in days.lowerBound.daysSinceEpoch...days.upperBound.daysSinceEpoch {
                guard let today = figures[day] else { continue }
                var streaks: [InsightStreak] = []
                for rule in metricRules {
                    var length = 0
                    while length < Self.longestStreak, let earlier = figures[day - Int64(length)],
                        rule.holds(on: earlier)
                    {
                        length += 1
                    }
                    if length > 0 { streaks.append(InsightStreak(rule: rule.id, days: length)) }
                }
                result.append(
                    InsightDay(
                        metric: metric, day: today.day, value: today.value, baseline: today.baseline,
                        deviation: today.deviation, mean7: today.mean7, mean28: today.mean28, streaks: streaks))
            }
        }
        return result
    }

    /// The insights the days' streaks make: one per run that held for the rule's days, listed
    /// in the order of the rules, then by day. `days` must be one metric's consecutive figures as
    /// `days(values:in:)` gives them (any range): a run still going on the last day ends there.
    public func insights(from days: [InsightDay]) -> [Insight] {
        var found: [Insight] = []
        for rule in rules {
            let mine = days.filter { $0.metric == rule.metric }.sorted { $0.day < $1.day }
            for (index, day) in mine.enumerated() {
                guard let streak = day.streaks.first(where: { $0.rule == rule.id }), streak.days >= rule.days else {
                    continue
                }
                // A run ends where the next day does not continue it.
                if index + 1 < mine.count, mine[index + 1].day == day.day.adding(days: 1),
                    mine[index + 1].streaks.contains(where: {
                        $0.rule == rule.id && $0.days == min(streak.days + 1, Self.longestStreak)
                    })
                {
                    continue
                }
                found.append(Self.insight(rule, day: day, streak: streak.days))
            }
        }
        return found
    }

    /// Daily values as the rules read them, from rollups and sleep nights.
    private static func values(rollups: [DailyRollup], nights: [SleepNight], rules: [InsightRule])
        -> [String: [CivilDate: Double]]
    {
        let metrics = Set(rules.map(\.metric))
        var values: [String: [CivilDate: Double]] = [:]
        for rollup in rollups where metrics.contains(rollup.metric) && rollup.metric != SleepNightCalculator.metric {
            guard let value = rollup.sum ?? rollup.average else { continue }
            values[rollup.metric, default: [:]][rollup.day] = value
        }
        if metrics.contains(SleepNightCalculator.metric) {
            for night in nights where night.asleepSeconds > 0 {
                values[SleepNightCalculator.metric, default: [:]][night.night] = night.asleepSeconds / 3600
            }
        }
        return values
    }

    // MARK: steps

    private static func figures(metric: String, day: CivilDate, value: Double, series: [CivilDate: Double])
        -> InsightDay
    {
        func window(_ from: Int64, _ to: Int64) -> [Double] {
            (from...to).compactMap { series[day.adding(days: $0)] }
        }
        let before = window(-baselineDays, -1)
        var baseline: InsightBaseline?
        var deviation: Double?
        if before.count >= minimumBaselineDays {
            let median = Self.median(before)
            let mad = Self.median(before.map { abs($0 - median) })
            baseline = InsightBaseline(median: median, mad: mad, days: before.count)
            let scale = max(mad, abs(median) * smallestMADShare, .ulpOfOne)
            deviation = (value - median) / scale
        }
        let week = window(-6, 0)
        let month = window(-27, 0)
        return InsightDay(
            metric: metric, day: day, value: value, baseline: baseline, deviation: deviation,
            mean7: week.count >= 4 ? week.reduce(0, +) / Double(week.count) : nil,
            mean28: month.count >= minimumBaselineDays ? month.reduce(0, +) / Double(month.count) : nil, streaks: [])
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private static func insight(_ rule: InsightRule, day: InsightDay, streak: Int) -> Insight {
        let first = day.day.adding(days: -Int64(streak - 1))
        let run = streak == 1 ? "on \(day.day)" : "on \(streak) days in a row"
        switch rule.condition {
        case .weekBelowMonth:
            let week = day.mean7 ?? day.value
            let month = day.mean28 ?? day.value
            return Insight(
                rule: rule.id, metric: rule.metric, first: first, last: day.day, baseline: month, observed: week,
                deviation: month > 0 ? week / month - 1 : 0, unit: rule.unit,
                text:
                    "\(rule.label) below your usual \(run): \(format(week)) \(rule.unit) against \(format(month)) over 28 days"
            )
        case .aboveBaseline, .belowBaseline:
            let median = day.baseline?.median ?? day.value
            let direction = day.value >= median ? "above" : "below"
            return Insight(
                rule: rule.id, metric: rule.metric, first: first, last: day.day, baseline: median, observed: day.value,
                deviation: day.deviation ?? 0, unit: rule.unit,
                text:
                    "\(rule.label) \(direction) your usual \(run): \(format(day.value)) \(rule.unit) against a usual \(format(median)) \(rule.unit)"
            )
        }
    }

    /// One decimal at most, for the insight's sentence.
    private static func format(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int64(tenths / 10)) : String(tenths / 10)
    }
}
