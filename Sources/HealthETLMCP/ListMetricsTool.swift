import HealthETLCore
import MCP

/// `list_metrics`: the metrics with data, each with its first and last local day, sample count
/// and units.
struct ListMetricsTool: HealthTool {
    struct Answer: Encodable {
        struct Metric: Encodable {
            let metric: String
            let name: String
            let kind: String
            /// The unit samples are stored in, and the unit of the daily figure.
            let unit: String?
            let dailyUnit: String?
            let firstDay: String
            let lastDay: String
            let samples: Int

            private enum CodingKeys: String, CodingKey {
                case metric, name, kind, unit, samples
                case dailyUnit = "daily_unit"
                case firstDay = "first_day"
                case lastDay = "last_day"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(metric, forKey: .metric)
                try container.encode(name, forKey: .name)
                try container.encode(kind, forKey: .kind)
                try container.encode(unit, forKey: .unit)
                try container.encode(dailyUnit, forKey: .dailyUnit)
                try container.encode(firstDay, forKey: .firstDay)
                try container.encode(lastDay, forKey: .lastDay)
                try container.encode(samples, forKey: .samples)
            }
        }

        let origin: String
        let metrics: [Metric]
    }

    let name = "list_metrics"
    let description = """
        The health metrics that have data, with each one's first and last local day, sample count, \
        kind and units. Start here to learn the metric names the other tools take.
        """
    let inputSchema = JSONSchema.object([:])
    let outputSchema = JSONSchema.object(
        [
            "origin": JSONSchema.string("store (this device) or collector"),
            "metrics": JSONSchema.array(
                JSONSchema.object(
                    [
                        "metric": JSONSchema.string(), "name": JSONSchema.string(), "kind": JSONSchema.string(),
                        "unit": JSONSchema.nullable("string"), "daily_unit": JSONSchema.nullable("string"),
                        "first_day": JSONSchema.string(), "last_day": JSONSchema.string(),
                        "samples": JSONSchema.integer(),
                    ],
                    required: ["metric", "name", "kind", "unit", "daily_unit", "first_day", "last_day", "samples"])),
        ], required: ["origin", "metrics"])

    func answer(_ arguments: ToolArguments, in context: ToolContext) async throws -> ToolAnswer {
        let catalog = context.access.catalog
        let metrics = try await context.reader.metricSummaries()
            .filter { context.access.permits($0.metric) }
            .compactMap { summary -> Answer.Metric? in
                guard let definition = catalog.metric(named: summary.metric)?.definition else { return nil }
                return Answer.Metric(
                    metric: definition.id, name: definition.name, kind: definition.kind.rawValue,
                    unit: definition.unit, dailyUnit: catalog.reportedUnit(of: definition),
                    firstDay: summary.firstDay.description, lastDay: summary.lastDay.description,
                    samples: summary.samples)
            }
            .sorted { $0.metric < $1.metric }
        let lines = metrics.map {
            "\($0.metric) (\($0.unit ?? $0.kind)): \($0.samples) samples, \($0.firstDay) to \($0.lastDay)"
        }
        return try ToolAnswer(
            Answer(origin: context.reader.origin, metrics: metrics),
            text: (["\(metrics.count) metrics with data:"] + lines).joined(separator: "\n"))
    }
}
