import Foundation
import HealthETLTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

extension UploadCommandTests {
    /// Tier 1 on receive: with a collector configured, a push's tier-1 samples (sleep stages) are
    /// sent on as soon as the push commits, without `upload`; its tier-2 samples wait for `upload`.
    @Test func pushedTierOneSamplesReachTheCollectorAtOnce() async throws {
        let server = try Server(runner: runner, directory: directory)
        defer { server.stop() }
        let store = directory.child("receiving")
        let configure = try healthetl([
            "--store", store, "upload", "--endpoint", server.url, "--token-file", tokenFile(mode: 0o600),
            "--save-config",
        ])
        #expect(configure.exitCode == 0, "\(configure.standardError)")
        let tokens = directory.child("receive-tokens")
        let pushToken = "push-token-0123456789abcdef0123456789"
        _ = FileManager.default.createFile(
            atPath: tokens, contents: Data("iphone \(pushToken)\n".utf8), attributes: [.posixPermissions: 0o600])
        let (receiver, port, _) = try ListeningServer.start(
            runner, ["--store", store, "receive", "--port", "0", "--token-file", tokens])
        defer { receiver.terminate() }

        let stages = (0..<5).map { index in
            #"{"startDate": "2026-01-1\#(index) 01:00:00 +0100", "endDate": "2026-01-1\#(index) 01:40:00 +0100", "#
                + #""value": "Deep", "source": "Apple Watch"}"#
        }
        let steps = (0..<3).map { index in
            #"{"qty": 100, "date": "2026-01-1\#(index) 09:00:00 +0100", "start": "2026-01-1\#(index) 09:00:00 +0100", "#
                + #""end": "2026-01-1\#(index) 09:10:00 +0100", "source": "iPhone"}"#
        }
        let body =
            #"{"data": {"metrics": [{"name": "sleep_analysis", "data": ["# + stages.joined(separator: ",")
            + #"]}, {"name": "step_count", "units": "count", "data": ["# + steps.joined(separator: ",") + "]}]}}"
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/hae")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(pushToken)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(body.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        let remote = server.dataDirectory + "/healthetl.sqlite"
        var delivered = 0
        for _ in 0..<200 {
            delivered = (try? Self.count("SELECT count(*) FROM samples", database: remote)) ?? 0
            if delivered >= 5 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(delivered == 5, "the sleep stages were not forwarded")
        let upload = try healthetl(["--store", store, "upload", "--json"])
        #expect(json(upload)["queued_samples"] as? Int == 3, "\(json(upload))")
        #expect(try Self.count("SELECT count(*) FROM samples", database: remote) == 8)
    }
}
