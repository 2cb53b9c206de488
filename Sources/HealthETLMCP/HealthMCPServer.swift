import Foundation
import HealthETLCore
import MCP

/// The read-only MCP server over one reader: the tools, the catalog as resources and the two
/// prompts. `healthetl mcp` runs one over standard input and output; `serve --mcp` makes one per
/// request for the caller's own data.
public struct HealthMCPServer: Sendable {
    public let reader: any HealthDataReader
    public let access: MetricAccess
    public let version: String
    public let clock: HealthETLCore.Clock

    /// The result's initializer that takes the structured content as it is: the generic one
    /// would encode it and decode it again.
    private static func result(_ content: [Tool.Content], _ structured: Value) -> CallTool.Result {
        let make: ([Tool.Content], Value?, Bool?, Metadata?) -> CallTool.Result =
            CallTool.Result.init(content:structuredContent:isError:_meta:)
        return make(content, structured, nil, nil)
    }

    /// Resources per `resources/list` page.
    static let pageSize = 50

    public init(
        reader: any HealthDataReader, access: MetricAccess, version: String, clock: HealthETLCore.Clock = .system
    ) {
        self.reader = reader
        self.access = access
        self.version = version
        self.clock = clock
    }

    /// The tools this reader can answer, in the order `tools/list` gives them.
    var tools: [any HealthTool] {
        var tools: [any HealthTool] = [ListMetricsTool(), DailyTool(), SleepTool()]
        if reader.holdsWorkouts && access.permitsWorkouts { tools.append(WorkoutsTool()) }
        tools += [InsightsTool(), SamplesTool(), SourcesTool(), StatusTool()] as [any HealthTool]
        return tools
    }

    /// A server with every handler registered, not yet started.
    public func make() async -> Server {
        let server = Server(
            name: "healthetl", version: version, title: "healthetl: your health data, read-only",
            instructions: """
                Read-only access to one person's health data as healthetl stores it: every source \
                deduplicated, daily figures by source priority, sleep nights, workouts and insights. \
                Days are local days (YYYY-MM-DD). Call list_metrics first to learn the metric names.
                """,
            capabilities: .init(
                prompts: .init(listChanged: false), resources: .init(subscribe: false, listChanged: false),
                tools: .init(listChanged: false)))
        let tools = self.tools
        let catalog = CatalogResources(access: access)
        let prompts = HealthPrompts()
        await server.withMethodHandler(ListTools.self) { _ in
            ListTools.Result(tools: tools.map(\.definition))
        }
        await server.withMethodHandler(CallTool.self) { parameters in
            try await call(parameters, tools: tools)
        }
        await server.withMethodHandler(ListResources.self) { parameters in
            try catalog.list(cursor: parameters.cursor, pageSize: Self.pageSize)
        }
        await server.withMethodHandler(ReadResource.self) { parameters in
            try catalog.read(parameters.uri)
        }
        await server.withMethodHandler(ListPrompts.self) { _ in
            ListPrompts.Result(prompts: prompts.list)
        }
        await server.withMethodHandler(GetPrompt.self) { parameters in
            try prompts.get(parameters.name, arguments: parameters.arguments, today: clock.now().utcDay)
        }
        return server
    }

    /// Answers one call; a mistake in the arguments or a failed read becomes a tool error the
    /// model reads, never a protocol error. A cancelled call throws, so no answer is sent.
    private func call(_ parameters: CallTool.Parameters, tools: [any HealthTool]) async throws -> CallTool.Result {
        guard let tool = tools.first(where: { $0.name == parameters.name }) else {
            let names = tools.map(\.name).joined(separator: ", ")
            return CallTool.Result(
                content: [
                    .text(
                        text: "no tool named \(QuotedName.of(parameters.name)); the tools are \(names)",
                        annotations: nil, _meta: nil)
                ],
                isError: true)
        }
        let context = ToolContext(reader: reader, access: access, today: clock.now().utcDay)
        do {
            let answer = try await tool.answer(ToolArguments(parameters.arguments), in: context)
            return Self.result([.text(text: answer.text, annotations: nil, _meta: nil)], answer.structured)
        } catch let error as ToolError {
            return CallTool.Result(
                content: [.text(text: error.description, annotations: nil, _meta: nil)], isError: true)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // A failed read (a locked or damaged store): said without paths or values.
            return CallTool.Result(
                content: [
                    .text(
                        text:
                            "the data could not be read (\(String(describing: type(of: error)))); `healthetl doctor` checks the store",
                        annotations: nil, _meta: nil)
                ],
                isError: true)
        }
    }
}

extension HealthMCPServer {
    /// Serves one client over standard input and output until it closes its end. Standard output
    /// carries the protocol only: logs go to standard error.
    public func serveStandardIO() async throws {
        let server = await make()
        try await server.start(transport: StdioTransport())
        await server.waitUntilCompleted()
        await server.stop()
    }
}
