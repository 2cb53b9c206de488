import MCP

/// `status`: how fresh the answers are.
struct StatusTool: HealthTool {
    struct Answer: Encodable {
        let origin: String
        let status: ReaderStatus
    }

    let name = "status"
    let description = """
        How current the data is: when the last import finished and data last arrived, when the last \
        upload ran and how many wait, how many samples are held, and whether the daily figures are \
        computed on each call or wait for a refresh.
        """
    let inputSchema = JSONSchema.object([:])
    let outputSchema = JSONSchema.object(
        [
            "origin": JSONSchema.string(),
            "status": JSONSchema.object(
                [
                    "projections": JSONSchema.string(), "days_awaiting_refresh": JSONSchema.integer(),
                    "last_import": JSONSchema.nullable("string"), "last_upload": JSONSchema.nullable("string"),
                    "last_received": JSONSchema.nullable("string"), "samples": JSONSchema.integer(),
                    "uploads_pending": JSONSchema.nullable("integer"),
                ],
                required: [
                    "projections", "days_awaiting_refresh", "last_import", "last_upload", "last_received", "samples",
                    "uploads_pending",
                ]),
        ], required: ["origin", "status"])

    func answer(_ arguments: ToolArguments, in context: ToolContext) async throws -> ToolAnswer {
        let status = try await context.reader.status()
        let lines = [
            "\(status.samples) samples (\(context.reader.origin)); projections \(status.projections)"
                + (status.daysAwaitingRefresh > 0 ? ", \(status.daysAwaitingRefresh) days awaiting refresh" : ""),
            "last import: \(status.lastImport ?? "never"); last data received: \(status.lastReceived ?? "never")",
            "last upload: \(status.lastUpload ?? "never")"
                + (status.uploadsPending.map { ", \($0) batches waiting" } ?? ""),
        ]
        return try ToolAnswer(
            Answer(origin: context.reader.origin, status: status), text: lines.joined(separator: "\n"))
    }
}
