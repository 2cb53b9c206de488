import Foundation
import HTTPTypes
import HealthETLCollectorStorage
import HealthETLMCP
import Hummingbird
import MCP

/// `POST /mcp` (`serve --mcp`): the MCP tools over Streamable HTTP, stateless: each request is
/// answered by a server made for the caller's own data, so no session outlives it and no answer
/// can reach another user. The bearer token is checked before (`AuthenticationMiddleware`).
struct MCPHandler: Sendable {
    let storage: any CollectorStorage
    let access: MetricAccess
    let version: String
    /// JSON-RPC bodies are small; a larger one is refused before it is read.
    static let maximumBodyBytes = 1 << 20

    /// The transport's checks of the request's headers. No origin check: a browser page that
    /// rebinds a name to this host still lacks the bearer token every request needs.
    private static let validators: [any HTTPRequestValidator] = [
        AcceptHeaderValidator(mode: .jsonOnly), ContentTypeValidator(), ProtocolVersionValidator(),
    ]

    func handle(_ request: Request, context: CollectorContext) async throws -> Response {
        let user = try context.requireUser()
        let body = try await RequestBody.collect(
            request, upTo: Self.maximumBodyBytes, advice: "send one JSON-RPC message per request")
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let server = await HealthMCPServer(
            reader: CollectorHealthReader(storage: storage, user: user), access: access, version: version
        ).make()
        let transport = StatelessHTTPServerTransport(
            validationPipeline: StandardValidationPipeline(validators: Self.validators))
        try await server.start(transport: transport)
        let answer = await transport.handleRequest(
            MCP.HTTPRequest(method: "POST", headers: headers, body: Data(body), path: "/mcp"))
        await server.stop()
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        fields[.cacheControl] = "no-store"
        let bytes = answer.bodyData ?? Data()
        return Response(
            status: HTTPResponse.Status(code: answer.statusCode), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
