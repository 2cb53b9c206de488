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
        let servers = try (0..<collectors).map { index in
            try ListeningServer.start(
                runner,
                [
                    "serve", "--port", "0", "--tokens", tokens, "--data",
                    directory.child("data-\(collectors)-\(index)"),
                    "--database", url,
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

        let sync = try runner.run([
            "--store", store, "sync", "--catch-up", "--since", "3650d", "--max-wait", "60s", "--endpoint",
            endpoints[collectors - 1], "--token-file", token, "--batch-size", "500", "--json",
        ])
        #expect(sync.exitCode == 0, "\(sync.standardError)")

        let local = store + "/healthetl.sqlite"
        let mine = try Set(UploadCommandTests.column("SELECT hex(id) FROM samples", database: local))
        let theirs = try cluster.sql("SELECT upper(encode(id, 'hex')) FROM samples", database: database)
        #expect(theirs.count == Set(theirs).count, "a sample is stored twice")
        #expect(
            Set(theirs) == mine,
            "\(mine.subtracting(theirs).count) missing, \(Set(theirs).subtracting(mine).count) extra")

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
