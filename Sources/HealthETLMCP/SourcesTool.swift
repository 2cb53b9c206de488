import HealthETLCore
import MCP

/// `sources`: the sources with samples, their devices when asked, and the priority in force.
struct SourcesTool: HealthTool {
    struct Answer: Encodable {
        let origin: String
        let sources: [SourceSamples]
        let priority: [String]
        let priorityByMetric: [String: [String]]
        let rule: String

        private enum CodingKeys: String, CodingKey {
            case origin, sources, priority, rule
            case priorityByMetric = "priority_by_metric"
        }
    }

    let name = "sources"
    let description = """
        The sources (apps and devices) that wrote samples, with how many each wrote, and the source \
        priority the daily figures and sleep nights use. Device descriptions only with \
        include_devices: true (they can carry a person's device name).
        """
    let inputSchema = JSONSchema.object([
        "include_devices": JSONSchema.boolean("Also list each source's device descriptions")
    ])
    let outputSchema = JSONSchema.object(
        [
            "origin": JSONSchema.string(),
            "sources": JSONSchema.array(
                JSONSchema.object(
                    [
                        "name": JSONSchema.string(), "samples": JSONSchema.integer(),
                        "devices": JSONSchema.array(JSONSchema.string()),
                    ], required: ["name", "samples", "devices"])),
            "priority": JSONSchema.array(JSONSchema.string()),
            "priority_by_metric": JSONSchema.map(JSONSchema.array(JSONSchema.string())),
            "rule": JSONSchema.string(),
        ], required: ["origin", "sources", "priority", "priority_by_metric", "rule"])

    static let rule = """
        Per metric and day, cumulative totals take each moment from the highest-ranked source that \
        covers it: the configured priority first, then a metric's own order from its source, then \
        watches and rings before phones before apps. Sleep nights come from one source each.
        """

    func answer(_ arguments: ToolArguments, in context: ToolContext) async throws -> ToolAnswer {
        let devices = try arguments.bool("include_devices") ?? false
        let summary = try await context.reader.sources()
        let sources = summary.sources.map {
            SourceSamples(name: $0.name, samples: $0.samples, devices: devices ? $0.devices : [])
        }
        let answer = Answer(
            origin: context.reader.origin, sources: sources, priority: summary.priority,
            priorityByMetric: summary.priorityByMetric.filter { context.access.permits($0.key) }, rule: Self.rule)
        let lines =
            [
                "\(sources.count) sources; priority: \(summary.priority.isEmpty ? "by class" : summary.priority.joined(separator: " > "))"
            ]
            + sources.map {
                "\($0.name): \($0.samples) samples"
                    + ($0.devices.isEmpty ? "" : " (\($0.devices.joined(separator: "; ")))")
            }
        return try ToolAnswer(answer, text: lines.joined(separator: "\n"))
    }
}
