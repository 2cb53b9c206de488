import Foundation
import HealthETLTestSupport
import Testing

/// `healthetl mcp` and `serve --mcp` with the official MCP Python SDK as the client
/// (Tests/tools/mcp_client.py): every tool's answer against what the command line and the
/// collector's REST API say of the same data, two users kept apart, and the protocol's errors.
@Suite(.serialized) struct MCPCommandTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-mcp")
    static let alice = "mcp-alice-token-0123456789abcdef01"
    static let bob = "mcp-bob-token-0123456789abcdef01234"
    /// The bundled sample exports' last weeks, which both hold.
    static let (first, last) = ("2024-11-18", "2024-11-30")

    /// A store with one bundled sample export in it.
    func store(_ name: String, importing export: String) throws -> String {
        let path = directory.child(name)
        let result = try runner.run(["--store", path, "import", TestPaths.repository("SampleExports/" + export)])
        #expect(result.exitCode == 0, "\(result.standardError)")
        return path
    }

    func secret(_ name: String, _ text: String) -> String {
        let path = directory.child(name)
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    /// What mcp_client.py printed: its checks made and their failures.
    func expectPassed(_ result: CommandRunner.Result, atLeast checks: Int) throws {
        #expect(result.exitCode == 0, "\(result.standardOutput.suffix(4000))\(result.standardError.suffix(4000))")
        let line = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "no report: \(line)")
        #expect(report["failures"] as? [String] == [])
        #expect((report["checks"] as? Int ?? 0) >= checks)
    }

    @Test func theToolsOverStandardIOAnswerWhatTheCommandLineComputes() throws {
        let store = try store("store", importing: "apple-health-sample.zip")
        let health = try runner.run([
            "--store", store, "import", TestPaths.repository("SampleExports/health-connect/Health Connect.zip"),
        ])
        #expect(health.exitCode == 0, "\(health.standardError)")
        let result = try PythonTools.run("mcp_client.py", ["stdio", runner.executable, store, Self.first, Self.last])
        try expectPassed(result, atLeast: 300)
    }

    @Test func theToolsOverHTTPShowEachUserTheirOwnDataOnly() throws {
        let alice = try store("alice", importing: "apple-health-sample.zip")
        let bob = try store("bob", importing: "health-connect/Health Connect.zip")
        let tokens = secret("tokens", "alice \(Self.alice)\nbob \(Self.bob)\n")
        let (server, port, log) = try ListeningServer.start(
            runner, ["serve", "--port", "0", "--data", directory.child("collector"), "--tokens", tokens, "--mcp"])
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let endpoint = "http://127.0.0.1:\(port)"
        for (store, token) in [(alice, Self.alice), (bob, Self.bob)] {
            let upload = try runner.run([
                "--store", store, "upload", "--endpoint", endpoint, "--token-file", secret(token + ".token", token),
            ])
            #expect(upload.exitCode == 0, "\(upload.standardError)")
        }
        let result = try PythonTools.run(
            "mcp_client.py",
            ["http", runner.executable, endpoint, Self.alice, alice, Self.bob, bob, Self.first, Self.last])
        try expectPassed(result, atLeast: 300)
        // Requests are logged, their tokens never.
        let logged = log.text
        #expect(logged.contains("route=/mcp"))
        #expect(!logged.contains(Self.alice) && !logged.contains(Self.bob))
    }

    @Test func serveRefusesMCPMetricsWithoutMCPAndAnUnknownMetric() throws {
        let lonely = try runner.run(["serve", "--mcp-metrics", "step_count"])
        #expect(lonely.exitCode != 0)
        #expect(lonely.standardError.contains("--mcp-metrics takes effect with --mcp only"))
        let unknown = try runner.run(["--store", directory.child("empty"), "mcp", "--metrics", "steps_walked"])
        #expect(unknown.exitCode != 0)
        #expect(unknown.standardError.contains("steps_walked"))
    }
}
