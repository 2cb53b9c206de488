import Foundation
import HealthETLCore
import MCP

/// One read-only tool: its definition as `tools/list` shows it, and how it answers a call.
protocol HealthTool: Sendable {
    var name: String { get }
    var description: String { get }
    var inputSchema: Value { get }
    var outputSchema: Value { get }

    /// - Throws: `ToolError` for arguments the model can correct; reader errors otherwise.
    func answer(_ arguments: ToolArguments, in context: ToolContext) async throws -> ToolAnswer
}

extension HealthTool {
    var definition: Tool {
        Tool(
            name: name, description: description, inputSchema: inputSchema,
            annotations: .init(
                title: name, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: outputSchema)
    }
}

/// What every call reads from: the reader, the metrics it may show, and today's date.
struct ToolContext: Sendable {
    let reader: any HealthDataReader
    let access: MetricAccess
    /// Today in UTC: the default end of every range.
    let today: CivilDate
}

/// A tool's answer: the structured content its output schema describes and a short text for
/// clients that show text only.
struct ToolAnswer {
    let structured: Value
    let text: String

    init(_ structured: some Encodable, text: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.structured = try ValueJSON.parse(Array(try encoder.encode(structured)))
        self.text = text
    }
}
