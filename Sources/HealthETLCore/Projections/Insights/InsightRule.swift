/// One documented insight rule: a condition a metric's day can meet, and how many days in a row
/// it must hold before the rule reports it. `InsightRule.all` is the one table of rules and
/// thresholds; nothing else decides what is unusual.
///
/// Wording is always "above / below your usual": an insight describes the data, never a diagnosis.
public struct InsightRule: Sendable, Equatable {
    /// Stable id, part of the API (`rule` in each insight).
    public let id: String
    /// The catalog metric whose daily value the rule reads.
    public let metric: String
    public let condition: InsightCondition
    /// Consecutive days the condition must hold.
    public let days: Int
    /// How the daily value is named and shown: "Resting heart rate", "bpm", its factor from the
    /// canonical unit (sleep is read in seconds and shown in hours).
    public let label: String
    public let unit: String

    /// The rules, in the order insights are listed.
    public static let all: [InsightRule] = [
        InsightRule(
            id: "resting_heart_rate_above_usual", metric: "resting_heart_rate",
            condition: .aboveBaseline(mads: 3, byAtLeast: 5), days: 2, label: "Resting heart rate", unit: "bpm"),
        InsightRule(
            id: "hrv_below_usual", metric: "heart_rate_variability_sdnn",
            condition: .belowBaseline(mads: 3, byAtLeast: 0), days: 2, label: "Heart rate variability (SDNN)",
            unit: "ms"),
        InsightRule(
            id: "sleep_below_usual", metric: SleepNightCalculator.metric,
            condition: .belowBaseline(mads: 0, byAtLeast: 1), days: 3, label: "Sleep", unit: "h"),
        InsightRule(
            id: "steps_trend_down", metric: "step_count", condition: .weekBelowMonth(byAtLeast: 0.30), days: 1,
            label: "Steps, 7-day mean", unit: "steps"),
    ]

    /// The metrics any rule reads.
    public static let metrics: [String] = InsightCalculator().metrics

    /// Whether the condition holds on a day with these figures.
    func holds(on day: InsightDay) -> Bool {
        switch condition {
        case .aboveBaseline(let mads, let least):
            guard let baseline = day.baseline, let deviation = day.deviation else { return false }
            return deviation >= mads && day.value - baseline.median >= least
        case .belowBaseline(let mads, let least):
            guard let baseline = day.baseline, let deviation = day.deviation else { return false }
            return deviation <= -mads && baseline.median - day.value >= least
        case .weekBelowMonth(let fraction):
            guard let week = day.mean7, let month = day.mean28, month > 0 else { return false }
            return week <= month * (1 - fraction)
        }
    }
}

/// What a rule tests on one day.
public enum InsightCondition: Sendable, Equatable {
    /// At least `mads` MADs and `byAtLeast` units above the baseline's median.
    case aboveBaseline(mads: Double, byAtLeast: Double)
    /// At least `mads` MADs and `byAtLeast` units below the baseline's median.
    case belowBaseline(mads: Double, byAtLeast: Double)
    /// The 7-day mean at least `byAtLeast` (a fraction) below the 28-day mean.
    case weekBelowMonth(byAtLeast: Double)
}
