import HealthETLCore
import MCP

/// `insights`: per rule metric and day the 28-day baseline, the deviation from it and the 7- and
/// 28-day means, with the insights the documented rules flag and what each rule tests.
struct InsightsTool: HealthTool {
    /// One metric's day, as `InsightDay` without the metric (the key it is listed under says it
    /// once: every string costs the SDK a regular expression when it sends the answer).
    struct Figure: Encodable {
        let day: InsightDay

        private enum CodingKeys: String, CodingKey {
            case day, value, baseline, deviation, mean7 = "mean_7d", mean28 = "mean_28d", streaks
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(day.day.description, forKey: .day)
            try container.encode(day.value, forKey: .value)
            try container.encode(day.baseline, forKey: .baseline)
            try container.encode(day.deviation, forKey: .deviation)
            try container.encode(day.mean7, forKey: .mean7)
            try container.encode(day.mean28, forKey: .mean28)
            try container.encode(day.streaks, forKey: .streaks)
        }
    }

    struct Answer: Encodable {
        struct Rule: Encodable {
            let id: String
            let metric: String
            let test: String
            let days: Int
            let unit: String
        }

        let origin: String
        let from: String
        let to: String
        let rules: [Rule]
        let insights: [Insight]
        /// Each metric's days, in day order.
        let days: [String: [Figure]]
        let sourcesUsed: [String]

        private enum CodingKeys: String, CodingKey {
            case origin, from, to, rules, insights, days
            case sourcesUsed = "sources_used"
        }
    }

    static let maximumDays: Int64 = 366

    let name = "insights"
    let description = """
        Baselines, deviations and flagged insights over a range of local days (at most 366; default \
        the 28 ending today): for each rule metric (resting heart rate, HRV, sleep, steps, …) and \
        day the value, the 28-day median and MAD before it, the deviation in MADs, the 7- and 28-day \
        means; the insights whose rule held for its number of days in a row, each with its text; \
        and every rule with what it tests. Insights describe the data, never a diagnosis.
        """
    let inputSchema = JSONSchema.object([
        "from": JSONSchema.day("First local day, YYYY-MM-DD"),
        "to": JSONSchema.day("Last local day, YYYY-MM-DD (default today)"),
    ])
    let outputSchema = JSONSchema.object(
        [
            "origin": JSONSchema.string(), "from": JSONSchema.string(), "to": JSONSchema.string(),
            "rules": JSONSchema.array(
                JSONSchema.object(
                    [
                        "id": JSONSchema.string(), "metric": JSONSchema.string(), "test": JSONSchema.string(),
                        "days": JSONSchema.integer(), "unit": JSONSchema.string(),
                    ], required: ["id", "metric", "test", "days", "unit"])),
            "insights": JSONSchema.array(
                JSONSchema.object(
                    [
                        "rule": JSONSchema.string(), "metric": JSONSchema.string(), "first": JSONSchema.string(),
                        "last": JSONSchema.string(), "days": JSONSchema.integer(), "baseline": JSONSchema.number(),
                        "observed": JSONSchema.number(), "deviation": JSONSchema.number(),
                        "unit": JSONSchema.string(), "text": JSONSchema.string(),
                    ], required: ["rule", "metric", "first", "last", "baseline", "observed", "unit", "text"])),
            "days": JSONSchema.map(
                JSONSchema.array(
                    JSONSchema.object(
                        [
                            "day": JSONSchema.string(), "value": JSONSchema.number(),
                            "deviation": JSONSchema.nullable("number"), "mean_7d": JSONSchema.nullable("number"),
                            "mean_28d": JSONSchema.nullable("number"),
                        ], required: ["day", "value"]))),
            "sources_used": JSONSchema.array(JSONSchema.string()),
        ], required: ["origin", "from", "to", "rules", "insights", "days", "sources_used"])

    func answer(_ arguments: ToolArguments, in context: ToolContext) async throws -> ToolAnswer {
        let days = try arguments.days(defaultLast: context.today, defaultSpan: 28, maximumDays: Self.maximumDays)
        let calculator = InsightCalculator(rules: InsightRule.all.filter { context.access.permits($0.metric) })
        guard !calculator.rules.isEmpty else { throw ToolError("no insight rule reads a metric exposed here") }
        // The baselines and streaks of the first day reach this far back.
        let reach = days.lowerBound.adding(days: -InsightCalculator.dependencyDays)...days.upperBound
        var rollups: [DailyRollup] = []
        var nights: [SleepNight] = []
        for metric in calculator.metrics {
            try Task.checkCancellation()
            if metric == SleepNightCalculator.metric {
                nights = try await context.reader.sleepNights(days: reach)
            } else {
                rollups += try await context.reader.dailyRollups(metric: metric, days: reach)
            }
        }
        let figures = calculator.days(rollups: rollups, nights: nights, in: days)
        let insights = calculator.insights(from: figures)
        let used = Set(
            rollups.filter { days.contains($0.day) }.flatMap(\.sources)
                + nights.filter { days.contains($0.night) }.map(\.source))
        let answer = Answer(
            origin: context.reader.origin, from: days.lowerBound.description, to: days.upperBound.description,
            rules: calculator.rules.map {
                Answer.Rule(id: $0.id, metric: $0.metric, test: $0.test, days: $0.days, unit: $0.unit)
            }, insights: insights, days: Dictionary(grouping: figures.map(Figure.init), by: \.day.metric),
            sourcesUsed: used.sorted())
        let lines =
            ["\(insights.count) insights, \(answer.from) to \(answer.to), from \(figures.count) metric-days:"]
            + insights.map { "\($0.first) to \($0.last): \($0.text)" }
        return try ToolAnswer(answer, text: lines.joined(separator: "\n"))
    }
}
