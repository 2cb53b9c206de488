import Foundation
import HealthETLTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// Several `healthetl serve` processes on one PostgreSQL database, as behind a load balancer:
/// uploads killed with SIGKILL at random moments, each sent to the next collector in turn, then a
/// catch-up, leave in the database exactly the store's samples, once each, and every collector
/// answers the projections computed here.
///
/// A killed upload's requests go on at their collectors and may commit after the catch-up: the
/// database must equal the store as soon as the catch-up exits 0 (it re-sent every sample and
/// deletion and each was answered after its commit), and still once no collector has a request
/// in flight (a late commit re-stores samples the store has, or re-deletes what it deleted).
@Suite(.serialized) struct MultiCollectorTests {
    let runner = CommandRunner()
    let directory = TemporaryDirectory("healthetl-multi")
    static let token = "multi-collector-token-0123456789ab"

    @Test(arguments: [2, 3])
    func killedUploadsAcrossCollectorsLeaveExactlyTheLocalData(_ collectors: Int) async throws {
        let (cluster, database) = try SharedPostgresCluster.newDatabase()
        let tokens = directory.child("tokens-\(collectors)")
        _ = FileManager.default.createFile(
            atPath: tokens, contents: Data("me \(Self.token)\n".utf8), attributes: [.posixPermissions: 0o600])
        let token = directory.child("token-\(collectors)")
        _ = FileManager.default.createFile(
            atPath: token, contents: Data(Self.token.utf8), attributes: [.posixPermissions: 0o600])
        let url = cluster.url(database: database) + "?sslmode=disable"
        let metricsPorts = try (0..<collectors).map { _ in try LoopbackPort.free() }
        let servers = try (0..<collectors).map { index in
            try ListeningServer.start(
                runner,
                [
                    "serve", "--port", "0", "--tokens", tokens, "--data",
                    directory.child("data-\(collectors)-\(index)"),
                    "--database", url, "--metrics-address", "127.0.0.1:\(metricsPorts[index])",
                ])
        }
        defer {
            for (process, _, _) in servers where process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
        }
        let endpoints = servers.map { "http://127.0.0.1:\($0.port)" }

        let store = directory.child("store-\(collectors)")
        let simulated = try runner.run([
            "--store", store, "simulate", "--days", "8", "--samples-per-day", "5000", "--changes-per-day", "4",
            "--seed", "20261126", "--origin", "2026-01-21", "--json",
        ])
        #expect(simulated.exitCode == 0, "\(simulated.standardError)")

        var random = SeededGenerator(seed: 2_718_281)
        var kills = 0
        for attempt in 0..<24 where kills < 8 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: runner.executable)
            process.arguments = [
                "--store", store, "upload", "--endpoint", endpoints[attempt % collectors], "--token-file", token,
                "--batch-size", "500",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(3_000 + random.next() % 300_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
        }
        #expect(kills >= 6, "the uploads finished too fast to be killed mid-way; make the store larger")

        // The retry budget is a bound, not a wait: the run ends once everything is delivered. It
        // counts from the run's start, and a loaded machine takes minutes to send the store twice
        // (batch tier, then the window): a batch refused for a moment after the first minute (its
        // request timed out, then 409 while the collector still answers it) must get its retry.
        let sync = try runner.run([
            "--store", store, "sync", "--catch-up", "--since", "3650d", "--max-wait", "10m", "--endpoint",
            endpoints[collectors - 1], "--token-file", token, "--batch-size", "500", "--json",
        ])
        #expect(sync.exitCode == 0, "\(sync.standardError)")

        let local = store + "/healthetl.sqlite"
        let mine = try Set(UploadCommandTests.column("SELECT hex(id) FROM samples", database: local))
        func compare(_ moment: String) throws {
            let theirs = try cluster.sql("SELECT upper(encode(id, 'hex')) FROM samples", database: database)
            #expect(theirs.count == Set(theirs).count, "\(moment): a sample is stored twice")
            #expect(
                Set(theirs) == mine,
                """
                \(moment): \(mine.subtracting(theirs).count) missing, \(Set(theirs).subtracting(mine).count) extra; \
                the catch-up reported \(sync.standardOutput)
                """)
        }
        try compare("as the catch-up exited")
        let quiet = try await eventually(within: 300) {
            var inFlight = 0.0
            for port in metricsPorts { inFlight += try await Self.requestsInFlight(metricsPort: port) }
            return inFlight == 0
        }
        #expect(quiet, "the collectors still answer the killed uploads' requests")
        try compare("once no collector had a request in flight")

        // Every collector answers the projections computed here.
        let computed = try runner.run([
            "--store", store, "projections", "--local", "--json", "--from", "2026-01-13", "--to", "2026-01-21",
        ])
        let expected = try Self.days(Data(computed.standardOutput.utf8), key: "days")
        #expect(expected.count > 10)
        for endpoint in endpoints {
            var answered: [String: Double] = [:]
            for metric in Set(expected.keys.map { String($0.split(separator: " ")[0]) }) {
                var request = URLRequest(
                    url: URL(string: "\(endpoint)/v1/projections/daily?metric=\(metric)&from=2026-01-13&to=2026-01-21")!
                )
                request.setValue("Bearer \(Self.token)", forHTTPHeaderField: "Authorization")
                let (data, _) = try await URLSession.shared.data(for: request)
                answered.merge(try Self.days(data, key: "days")) { $1 }
            }
            #expect(answered.keys.sorted() == expected.keys.sorted(), "\(endpoint)")
            for (key, value) in expected {
                #expect(abs((answered[key] ?? .nan) - value) <= 1e-9 * max(1, abs(value)), "\(endpoint) \(key)")
            }
        }
    }

    /// The requests a collector is answering now, from its metrics listener.
    static func requestsInFlight(metricsPort: Int) async throws -> Double {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!)
        let name = "healthetl_http_requests_in_flight "
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        let line = try #require(lines.first { $0.hasPrefix(name) })
        return try #require(Double(line.dropFirst(name.count)))
    }

    /// `metric day` → the day's sum, else its average, from a projections listing's `key` array.
    static func days(_ data: Data, key: String) throws -> [String: Double] {
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        var days: [String: Double] = [:]
        for day in object?[key] as? [[String: Any]] ?? [] {
            guard let metric = day["metric"] as? String, let date = day["day"] as? String,
                let value = (day["sum"] as? NSNumber ?? day["avg"] as? NSNumber)?.doubleValue
            else { continue }
            days["\(metric) \(date)"] = value
        }
        return days
    }
}
