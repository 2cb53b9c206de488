import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLMCP
import HealthETLRuntime

/// `healthetl mcp`: the store, read-only, to an assistant over the Model Context Protocol.
struct MCPCommand: AsyncParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract:
            "Serve the store read-only to an assistant over the Model Context Protocol (standard input and output).",
        discussion: """
            An MCP client (a desktop assistant, an IDE, an agent) starts this as a subprocess and
            talks JSON-RPC on its standard input and output; nothing listens on a port. Tools:
            list_metrics, daily, sleep, workouts, insights, samples, sources, status (each
            read-only); the metric catalog as resources; prompts weekly_summary and
            compare_periods. The daily figures are the ones `projections --local` computes. What
            the tools answer goes to the client and, through it, to the model provider it uses:
            --metrics limits what can be read. Docs/mcp.md has the client configuration.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Option(
        help: ArgumentHelp(
            "Expose only these metrics (comma-separated catalog names; add `workouts` to expose workouts).",
            valueName: "names"))
    var metrics: String?

    func run() async throws {
        let catalog = try global.loadCatalog()
        let access = try CommandFailure.wrapping {
            try MetricAccess(catalog: catalog, allowed: metrics.map(Self.names))
        }
        let reader = try CommandFailure.wrapping {
            try StoreHealthReader(directory: global.storeDirectory, catalog: catalog)
        }
        try await HealthMCPServer(reader: reader, access: access, version: LinkedLibraries.healthetlVersion)
            .serveStandardIO()
    }

    static func names(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
