import Foundation
import HealthETLTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `healthetl follow` and the change feed end to end: two clients of one user on one collector,
/// the built binary for every part.
@Suite(.serialized) struct FollowCommandTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-follow")
    static let token = "follow-token-0123456789abcdef0123"

    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// The collector, and a token file for its one user.
    struct Collector {
        let process: Process
        let port: Int
        let tokenFile: String
        var endpoint: String { "http://127.0.0.1:\(port)" }

        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
    }

    func startCollector(
        _ name: String, backend: Backend = .sqlite, port: Int = 0, database: String? = nil, extra: [String] = []
    ) throws -> Collector {
        let tokens = directory.child("\(name)-tokens")
        let tokenFile = directory.child("\(name)-token")
        for (path, text) in [(tokens, "me \(Self.token)\n"), (tokenFile, Self.token)]
        where !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(
                atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        }
        var arguments = [
            "serve", "--port", String(port), "--tokens", tokens, "--data", directory.child("\(name)-data"),
        ]
        if let database {
            arguments += ["--database", database]
        } else if backend == .postgres {
            let (cluster, database) = try SharedPostgresCluster.newDatabase()
            arguments += ["--database", cluster.url(database: database) + "?sslmode=disable"]
        }
        let (process, bound, _) = try ListeningServer.start(runner, arguments + extra)
        return Collector(process: process, port: bound, tokenFile: tokenFile)
    }

    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        let result = try runner.run(arguments)
        #expect(result.exitCode == 0, "\(arguments.prefix(3)): \(result.standardError)")
        return result
    }

    /// A store with `days` days of simulated data from `origin`.
    func simulated(_ name: String, days: Int, origin: String, seed: Int) throws -> String {
        let store = directory.child(name)
        _ = try run([
            "--store", store, "simulate", "--days", String(days), "--samples-per-day", "1500", "--changes-per-day", "2",
            "--seed", String(seed), "--origin", origin,
        ])
        return store
    }

    func upload(_ store: String, to collector: Collector) throws -> [String: Any] {
        let result = try run([
            "--store", store, "upload", "--endpoint", collector.endpoint, "--token-file", collector.tokenFile, "--json",
        ])
        return (try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]) ?? [:]
    }

    /// The store's projections from `from` to `to` (days and nights), as `projections --json` shows them.
    func projections(_ store: String, from: String = "2025-12-01", to: String = "2026-04-30") throws -> String {
        let result = try run(["--store", store, "projections", "--from", from, "--to", to, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] ?? [:]
        let days = (object["days"] as? [[String: Any]] ?? []).map { day in day.filter { $0.key != "freshness" } }
        let body: [String: Any] = ["days": days, "nights": object["nights"] ?? []]
        return String(
            decoding: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]), as: UTF8.self)
    }

    func feedStatus(_ store: String) throws -> [String: Any] {
        let result = try run(["--store", store, "status", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return object?["feed"] as? [String: Any] ?? [:]
    }

    /// `follow` on `store`, once it has caught up with the collector's feed.
    func caughtUpFollower(_ store: String, of collector: Collector) throws -> FollowProcess {
        let follower = try FollowProcess.start(runner, store: store, collector: collector)
        #expect(follower.waitForLine(containing: "caught_up", seconds: 30), "\(follower.errors)")
        return follower
    }

    @Test(arguments: Backend.allCases)
    func aFollowingClientHasTheOtherClientsDaysWithinTwoSeconds(_ backend: Backend) async throws {
        let collector = try startCollector("two-\(backend)", backend: backend)
        defer { collector.stop() }
        let laptop = directory.child("laptop-\(backend)")
        let follower = try caughtUpFollower(laptop, of: collector)
        defer { follower.stop() }

        let phone = try simulated("phone-\(backend)", days: 10, origin: "2026-01-21", seed: 11)
        let uploaded = try upload(phone, to: collector)
        #expect((uploaded["delivered_batches"] as? Int ?? 0) > 0)
        let wanted = try projections(phone)
        #expect(wanted.contains("step_count"))
        let arrived = try await eventually(within: 2) { try projections(laptop) == wanted }
        #expect(arrived, "the laptop's projections differ from the phone's 2 s after its upload")
        let status = try feedStatus(laptop)
        #expect(status["endpoint"] as? String == collector.endpoint)
        #expect((status["cursor"] as? Int ?? 0) > 0 && status["behind"] as? Int == 0)
        #expect(status["last_event"] is String)

        // SIGTERM: the follower finishes and exits 0.
        kill(follower.process.processIdentifier, SIGTERM)
        follower.process.waitUntilExit()
        #expect(follower.process.terminationStatus == 0, "\(follower.errors)")
    }

    /// Two collectors on one PostgreSQL database: a follower of one sees what was stored through
    /// the other (its streams read the shared feed every second).
    @Test func aFollowerOfOneCollectorSeesBatchesStoredThroughAnother() async throws {
        let (cluster, name) = try SharedPostgresCluster.newDatabase()
        let database = cluster.url(database: name) + "?sslmode=disable"
        let front = try startCollector("shared-a", database: database)
        defer { front.stop() }
        let back = try startCollector("shared-b", database: database)
        defer { back.stop() }
        let laptop = directory.child("laptop-shared")
        let follower = try caughtUpFollower(laptop, of: front)
        defer { follower.stop() }
        let phone = try simulated("phone-shared", days: 4, origin: "2026-02-10", seed: 15)
        _ = try upload(phone, to: back)
        let wanted = try projections(phone)
        #expect(try await eventually(within: 5) { try projections(laptop) == wanted })
        #expect(follower.waitForLine(containing: "\"applied\"", seconds: 1))
    }

    @Test func killedMidApplyAndRestartedTheFollowerSkipsNoKey() async throws {
        let collector = try startCollector("kill")
        defer { collector.stop() }
        let laptop = directory.child("laptop-kill")
        var random = SeededGenerator(seed: 42)
        var kills = 0
        // The phone uploads in small batches: a stream of changes the follower applies one by one,
        // long enough (450 batches) that a fast machine still sees several kills before it ends.
        let phone = try simulated("phone-kill", days: 30, origin: "2026-01-05", seed: 12)
        let upload = Process()
        upload.executableURL = URL(fileURLWithPath: runner.executable)
        upload.arguments = [
            "--store", phone, "upload", "--endpoint", collector.endpoint, "--token-file", collector.tokenFile,
            "--batch-size", "100",
        ]
        upload.standardOutput = FileHandle.nullDevice
        upload.standardError = FileHandle.nullDevice
        var follower = try caughtUpFollower(laptop, of: collector)
        try upload.run()
        while upload.isRunning && kills < 6 {
            _ = follower.waitForLine(containing: "\"applied\"", seconds: 5)
            usleep(UInt32(random.next() % 150_000))
            kill(follower.process.processIdentifier, SIGKILL)
            follower.process.waitUntilExit()
            kills += 1
            follower = try FollowProcess.start(runner, store: laptop, collector: collector)
        }
        upload.waitUntilExit()
        #expect(upload.terminationStatus == 0)
        #expect(kills >= 3, "the upload finished before the follower could be killed mid-way")
        defer { follower.stop() }
        // The phone's projections after a catch-up of its own are the collector's: the laptop ends equal.
        _ = try self.upload(phone, to: collector)
        let wanted = try projections(phone)
        #expect(try await eventually(within: 20) { try projections(laptop) == wanted })
    }

    @Test func aCollectorRestartMidStreamIsFollowedByAReconnectAndACatchUp() async throws {
        let first = try startCollector("restart")
        let laptop = directory.child("laptop-restart")
        let follower = try caughtUpFollower(laptop, of: first)
        defer { follower.stop() }
        first.stop()
        #expect(follower.waitForLine(containing: "\"failed\"", seconds: 10))
        let phone = try simulated("phone-restart", days: 5, origin: "2026-02-01", seed: 13)
        let second = try startCollector("restart", port: first.port)
        defer { second.stop() }
        _ = try upload(phone, to: second)
        let wanted = try projections(phone)
        #expect(try await eventually(within: 40) { try projections(laptop) == wanted })
    }

    @Test func pastTheRetentionWindowTheFollowerRebuildsAndUnchangedScopesCostOnly304s() async throws {
        let collector = try startCollector("retention", extra: ["--change-retention", "1s"])
        defer { collector.stop() }
        let phone = try simulated("phone-retention", days: 6, origin: "2026-03-01", seed: 14)
        _ = try upload(phone, to: collector)
        let laptop = directory.child("laptop-retention")
        let first = try run([
            "--store", laptop, "sync", "--catch-up", "--endpoint", collector.endpoint, "--token-file",
            collector.tokenFile, "--json",
        ])
        #expect(first.standardOutput.contains("\"rebuilt\" : true"))
        #expect(try projections(laptop) == projections(phone))

        // One more day of steps from elsewhere, then the feed forgets it: the laptop's cursor is gone.
        let (status, _) = try await postSteps(collector, day: "2026-03-03", value: 4321)
        #expect(status == 200)
        sleep(3)
        let second = try run([
            "--store", laptop, "upload", "--endpoint", collector.endpoint, "--token-file", collector.tokenFile,
            "--json",
        ])
        let report = try #require(
            (try JSONSerialization.jsonObject(with: Data(second.standardOutput.utf8)) as? [String: Any])?["feed"]
                as? [String: Any])
        #expect(report["rebuilt"] as? Bool == true)
        let scopes = report["scopes"] as? Int ?? 0
        let pulled = report["pulled"] as? Int ?? 0
        // Steps and the insights of that year changed; every other scope answered 304.
        #expect(pulled == 2 && report["not_modified"] as? Int == scopes - 2 && scopes > 4, "\(report)")
        #expect(try projections(laptop, from: "2026-03-03", to: "2026-03-03").contains("4321"))
        #expect(try feedStatus(laptop)["rebuilds"] as? Int == 2)
        // Nothing changed since: asking again costs nothing at all.
        let third = try run([
            "--store", laptop, "upload", "--endpoint", collector.endpoint, "--token-file", collector.tokenFile,
            "--json",
        ])
        #expect(third.standardOutput.contains("\"scopes\" : 0"))
    }

    /// Sixty days of resting heart rate with two high days, stored by another device: `insights`
    /// shows the collector's finding after a sync, and `--local` (no such samples here) finds nothing.
    @Test func insightsShowWhatTheCollectorFound() async throws {
        let collector = try startCollector("insights")
        defer { collector.stop() }
        let first = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        var samples: [String] = []
        for index in 0..<60 {
            let day = ISO8601DateFormatter().string(from: first.addingTimeInterval(Double(index) * 86_400))
            let value = index == 45 || index == 46 ? 72 : 55 + index % 3
            samples.append(
                #"{"id":"\#(String(format: "%032x", 0xabc000 + index))","metric":"resting_heart_rate","source":"Watch","#
                    + #""start":"\#(day)","end":"\#(day)","value":\#(value),"utc_offset_s":0}"#)
        }
        let body = #"{"batch_id":"rhr-60","samples":[\#(samples.joined(separator: ","))],"deletions":[]}"#
        let (status, answer) = try await post(collector, batchID: "rhr-60", body: body)
        #expect(status == 200, "\(String(decoding: answer, as: UTF8.self))")
        let laptop = directory.child("laptop-insights")
        _ = try run([
            "--store", laptop, "sync", "--catch-up", "--endpoint", collector.endpoint, "--token-file",
            collector.tokenFile, "--json",
        ])
        let shown = try run(["--store", laptop, "insights", "--from", "2026-02-01", "--to", "2026-03-01", "--json"])
        let listing = try #require(
            try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [String: Any])
        #expect(listing["origin"] as? String == "collector")
        let insights = listing["insights"] as? [[String: Any]] ?? []
        #expect(insights.map { $0["rule"] as? String } == ["resting_heart_rate_above_usual"])
        #expect(
            insights.first?["first"] as? String == "2026-02-15" && insights.first?["last"] as? String == "2026-02-16")
        #expect((listing["rules"] as? [Any])?.count == 4)
        let text = try run(["--store", laptop, "insights", "--from", "2026-02-01", "--to", "2026-03-01"])
        #expect(text.standardOutput.contains("above your usual on 2 days in a row"))
        let local = try run(["--store", laptop, "insights", "--local", "--from", "2026-02-01", "--to", "2026-03-01"])
        #expect(local.standardOutput.contains("computed here") && local.standardOutput.contains("No data"))
        #expect(
            try runner.run(["--store", laptop, "insights", "--from", "2026-03-01", "--to", "2026-02-01"]).exitCode != 0)
    }

    /// A collector played by `FaultInjectingServer`: what it answers, by path, and a token file.
    func scriptedCollector(
        _ name: String, answering: @escaping @Sendable (String, String) -> FaultInjectingServer.Action?
    ) throws -> (FaultInjectingServer, tokenFile: String) {
        let tokenFile = directory.child("\(name)-token")
        _ = FileManager.default.createFile(
            atPath: tokenFile, contents: Data(Self.token.utf8), attributes: [.posixPermissions: 0o600])
        let server = try FaultInjectingServer(script: []) { request in
            let parts = request.target.split(separator: "?", maxSplits: 1).map(String.init)
            return answering(parts[0], parts.count > 1 ? parts[1] : "")
        }
        return (server, tokenFile)
    }

    /// The projection pulls a scripted collector was asked for, as (path, first day asked).
    static func pulls(_ server: FaultInjectingServer) -> [(path: String, from: String)] {
        server.requests.compactMap { request in
            let parts = request.target.split(separator: "?", maxSplits: 1).map(String.init)
            guard ["/v1/projections/daily", "/v1/projections/sleep", "/v1/projections/insights"].contains(parts[0])
            else { return nil }
            let from = parts.last?.split(separator: "&").first { $0.hasPrefix("from=") }?.dropFirst(5)
            return (parts[0], from.map(String.init) ?? "")
        }
    }

    static let emptyDays = FaultInjectingServer.Action.json(status: 200, #"{"days":[],"nights":[]}"#)
    static let heartbeats = FaultInjectingServer.Action.endless(
        headers: ["Content-Type": "text/event-stream"], chunk: Array(": heartbeat\n\n".utf8), upTo: 1 << 16)

    /// A collector that sends `data:` lines without the blank line that ends an event: the client
    /// drops the event at its cap (1 MiB), reconnects, and stays small (without the cap it reached
    /// 566 MB after 400 MB received).
    @Test func anEndlessEventIsDroppedAtItsCapAndTheStreamFollowedAgain() async throws {
        let line = Array(("data: " + String(repeating: "x", count: 1_017) + "\n").utf8)
        let (server, tokenFile) = try scriptedCollector("endless") { path, _ in
            switch path {
            case "/v1/projections/extent": .json(status: 200, #"{"head":0,"metrics":[]}"#)
            case "/v1/changes": .json(status: 200, #"{"changes":[],"next":0,"head":0,"more":false}"#)
            case "/v1/changes/stream":
                .endless(headers: ["Content-Type": "text/event-stream"], chunk: line, upTo: 256 << 20)
            default: nil
            }
        }
        defer { server.stop() }
        let follower = try FollowProcess.start(
            runner, store: directory.child("laptop-endless"), endpoint: "http://127.0.0.1:\(server.port)",
            tokenFile: tokenFile)
        defer { follower.stop() }
        let streams = { server.exchanges.filter { $0.request.target == "/v1/changes/stream" } }
        let followedAgain = try await eventually(within: 60) { streams().count >= 3 && streams()[1].finished != nil }
        #expect(followedAgain, "\(follower.errors)")
        let peak = try #require(ProcessMemory.peakResidentBytes(of: follower.process.processIdentifier))
        follower.stop()
        // What the client read of each stream, beyond its cap, is at most what the sockets buffer.
        for stream in streams().prefix(2) {
            let sent = try #require(stream.endlessBytesSent)
            #expect(sent < 32 << 20, "\(sent >> 20) MiB of one event sent before the client dropped it")
        }
        #expect(peak < 100 << 20, "the follower peaked at \(peak >> 20) MiB")
        #expect(follower.waitForLine(containing: "event of more than 1048576 bytes", seconds: 1))
    }

    /// A collector whose extent, or a change's key, spans 0001-01-01…9999-12-31: scopes are cut only
    /// within the years samples can have (1899–2200 as local days), and a change's only where the
    /// store or the collector's extent has days (uncut, it took 19,998 requests before one commit).
    @Test func extentsAndKeysSpanningAllYearsCostBoundedPulls() async throws {
        let store = directory.child("laptop-years")
        let everything = #"{"metric":"step_count","first":"0001-01-01","last":"9999-12-31"}"#
        let (wide, wideToken) = try scriptedCollector("wide-extent") { path, _ in
            switch path {
            case "/v1/projections/extent": .json(status: 200, #"{"head":1,"metrics":[\#(everything)]}"#)
            case "/v1/changes": .json(status: 200, #"{"changes":[],"next":1,"head":1,"more":false}"#)
            case "/v1/changes/stream": Self.heartbeats
            default: Self.emptyDays
            }
        }
        defer { wide.stop() }
        let first = try FollowProcess.start(
            runner, store: store, endpoint: "http://127.0.0.1:\(wide.port)", tokenFile: wideToken)
        defer { first.stop() }
        #expect(first.waitForLine(containing: "caught_up", seconds: 60), "\(first.errors)")
        first.stop()
        let rebuilt = Self.pulls(wide)
        // Step counts' rollups and the insight days, a scope a year from 1899 to 2200 at most.
        #expect(rebuilt.count > 0 && rebuilt.count <= 2 * 302, "\(rebuilt.count) pulls")
        #expect(rebuilt.allSatisfy { ("1899-01-01"..."2200-01-01").contains($0.from) })

        // Another collector (so a rebuild first) holds one year; its one change names every year.
        let key = #"{"scope":"daily","metric":"step_count","from":"0001-01-01","to":"9999-12-31"}"#
        let oneYear = #"{"metric":"step_count","first":"2026-01-01","last":"2026-03-01"}"#
        let (narrow, narrowToken) = try scriptedCollector("wide-key") { path, query in
            switch path {
            case "/v1/projections/extent": .json(status: 200, #"{"head":1,"metrics":[\#(oneYear)]}"#)
            case "/v1/changes" where query.contains("since=1&"):
                .json(status: 200, #"{"changes":[{"seq":2,"keys":[\#(key)]}],"next":2,"head":2,"more":false}"#)
            case "/v1/changes": .json(status: 200, #"{"changes":[],"next":2,"head":2,"more":false}"#)
            case "/v1/changes/stream": Self.heartbeats
            default: Self.emptyDays
            }
        }
        defer { narrow.stop() }
        let second = try FollowProcess.start(
            runner, store: store, endpoint: "http://127.0.0.1:\(narrow.port)", tokenFile: narrowToken)
        defer { second.stop() }
        #expect(second.waitForLine(containing: "caught_up", seconds: 60), "\(second.errors)")
        second.stop()
        let pulled = Self.pulls(narrow)
        // The rebuild's two scopes of 2026 and the change's one.
        #expect(pulled.count == 3 && pulled.allSatisfy { $0.from == "2026-01-01" }, "\(pulled)")
        #expect(try feedStatus(store)["cursor"] as? Int == 2)
    }

    func post(_ collector: Collector, batchID: String, body: String) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: collector.endpoint + "/v1/batches")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(Self.token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(batchID, forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = Data(body.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    func postSteps(_ collector: Collector, day: String, value: Double) async throws -> (Int, Data) {
        try await post(
            collector, batchID: "other-device-1",
            body: """
                {"batch_id":"other-device-1","samples":[{"id":"00112233445566778899aabbccddeeff","metric":"step_count",
                "source":"Other phone","start":"\(day)T12:00:00Z","end":"\(day)T12:30:00Z","value":\(value)}],"deletions":[]}
                """)
    }
}

/// A running `healthetl follow --json`, its output lines gathered as they come.
final class FollowProcess: Sendable {
    let process: Process
    private let output = Mutex("")
    private let errorText = Mutex("")

    private init(process: Process) { self.process = process }

    static func start(_ runner: CommandRunner, store: String, collector: FollowCommandTests.Collector) throws
        -> FollowProcess
    {
        try start(runner, store: store, endpoint: collector.endpoint, tokenFile: collector.tokenFile)
    }

    static func start(_ runner: CommandRunner, store: String, endpoint: String, tokenFile: String) throws
        -> FollowProcess
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runner.executable)
        process.arguments = ["--store", store, "follow", "--endpoint", endpoint, "--token-file", tokenFile, "--json"]
        let follower = FollowProcess(process: process)
        let out = Pipe()
        let err = Pipe()
        out.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            follower.output.withLock { $0 += text }
        }
        err.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            follower.errorText.withLock { $0 += text }
        }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return follower
    }

    var errors: String { errorText.withLock { $0 } }

    /// Waits for a line containing `text` that was not waited for before.
    func waitForLine(containing text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let found = output.withLock { output -> Bool in
                guard let range = output.range(of: text) else { return false }
                output.removeSubrange(output.startIndex..<range.upperBound)
                return true
            }
            if found { return true }
            usleep(20_000)
        }
        return false
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}
