import HealthETLCore
import MCP

/// `daily`: one metric's daily rollups over a range of local days, by source priority.
struct DailyTool: HealthTool {
    /// One day's figures. The metric and when they were computed are said once, in the answer:
    /// every string costs the SDK a regular expression when it sends the answer.
    struct Day: Encodable {
        let day: String
        let sum: Double?
        let avg: Double?
        let min: Double?
        let max: Double?
        let latest: Double?
        let count: Int
        let sources: [String]
        let coverageSeconds: Double

        init(_ rollup: DailyRollup) {
            day = rollup.day.description
            sum = rollup.sum
            avg = rollup.average
            min = rollup.minimum
            max = rollup.maximum
            latest = rollup.latest
            count = rollup.count
            sources = rollup.sources
            coverageSeconds = rollup.coverageSeconds
        }

        private enum CodingKeys: String, CodingKey {
            case day, sum, avg, min, max, latest, count, sources
            case coverageSeconds = "coverage_s"
        }
    }

    struct Answer: Encodable {
        let origin: String
        let metric: String
        let unit: String?
        let aggregation: String
        let from: String
        let to: String
        let computedAt: String?
        let days: [Day]
        let sourcesUsed: [String]

        private enum CodingKeys: String, CodingKey {
            case origin, metric, unit, aggregation, from, to, days
            case computedAt = "computed_at"
            case sourcesUsed = "sources_used"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(origin, forKey: .origin)
            try container.encode(metric, forKey: .metric)
            try container.encode(unit, forKey: .unit)
            try container.encode(aggregation, forKey: .aggregation)
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
            try container.encode(computedAt, forKey: .computedAt)
            try container.encode(days, forKey: .days)
            try container.encode(sourcesUsed, forKey: .sourcesUsed)
        }
    }

    static let maximumDays: Int64 = 3660

    let name = "daily"
    let description = """
        One metric's daily figures over a range of local days (at most 3660): for cumulative metrics \
        (steps, energy, distance) the day's total by source priority (no double counting between \
        phone and watch), for the others the mean, minimum, maximum and latest value; with the \
        sources each day used. Defaults to the 30 days ending today.
        """
    let inputSchema = JSONSchema.object(
        [
            "metric": JSONSchema.string("A metric name from list_metrics, e.g. step_count or resting_heart_rate"),
            "from": JSONSchema.day("First local day, YYYY-MM-DD"),
            "to": JSONSchema.day("Last local day, YYYY-MM-DD (default today)"),
        ], required: ["metric"])
    let outputSchema = JSONSchema.object(
        [
            "origin": JSONSchema.string(), "metric": JSONSchema.string(), "unit": JSONSchema.nullable("string"),
            "aggregation": JSONSchema.string("sum, statistics, latest, duration, count or panel"),
            "from": JSONSchema.string(), "to": JSONSchema.string(),
            "computed_at": JSONSchema.nullable("string"),
            "days": JSONSchema.array(
                JSONSchema.object(
                    [
                        "day": JSONSchema.string(), "sum": JSONSchema.nullable("number"),
                        "avg": JSONSchema.nullable("number"), "min": JSONSchema.nullable("number"),
                        "max": JSONSchema.nullable("number"), "latest": JSONSchema.nullable("number"),
                        "count": JSONSchema.integer(),
                        "sources": JSONSchema.array(JSONSchema.string()), "coverage_s": JSONSchema.number(),
                    ], required: ["day", "count", "sources"])),
            "sources_used": JSONSchema.array(JSONSchema.string()),
        ], required: ["origin", "metric", "unit", "aggregation", "from", "to", "computed_at", "days", "sources_used"])

    func answer(_ arguments: ToolArguments, in context: ToolContext) async throws -> ToolAnswer {
        let metric = try context.access.resolve(try arguments.required("metric"))
        let days = try arguments.days(defaultLast: context.today, defaultSpan: 30, maximumDays: Self.maximumDays)
        let rollups = try await context.reader.dailyRollups(metric: metric.id, days: days)
        let unit = context.access.catalog.reportedUnit(of: metric)
        let answer = Answer(
            origin: context.reader.origin, metric: metric.id, unit: unit, aggregation: metric.aggregation.rawValue,
            from: days.lowerBound.description, to: days.upperBound.description,
            computedAt: rollups.compactMap(\.computedAt).max()?.description, days: rollups.map(Day.init),
            sourcesUsed: Array(Set(rollups.flatMap(\.sources))).sorted())
        return try ToolAnswer(answer, text: Self.text(answer))
    }

    private static func text(_ answer: Answer) -> String {
        let unit = answer.unit.map { " \($0)" } ?? ""
        var lines = [
            "\(answer.metric), \(answer.from) to \(answer.to): \(answer.days.count) days with data"
                + (answer.sourcesUsed.isEmpty ? "" : " (sources: \(answer.sourcesUsed.joined(separator: ", ")))")
        ]
        for day in answer.days.suffix(31) {
            let figure =
                day.sum.map { "total \(NumberText.short($0))\(unit)" }
                ?? day.avg.map {
                    "mean \(NumberText.short($0)), min \(NumberText.short(day.min ?? $0)), max \(NumberText.short(day.max ?? $0))\(unit)"
                } ?? "\(day.count) samples"
            lines.append("\(day.day): \(figure)")
        }
        if answer.days.count > 31 { lines.append("(the text shows the last 31 days; the structured answer has all)") }
        return lines.joined(separator: "\n")
    }
}
