import Foundation
import HealthETLCore
import HealthETLSQLite
import HealthETLWire
import Testing

@testable import HealthETLCollectorSQLite
@testable import HealthETLServer

/// `GET`/`PUT /v1/settings/source-priority`: per user, checked, kept across restarts, and a new
/// order recomputes the projections already computed.
@Suite struct SourcePriorityAPITests {
    let harness = try! CollectorHarness()

    // Watch 10:00–10:10, 600 steps; phone 10:05–10:15, 300 steps. The watch first: 300 + 300 +
    // 150 = 750. The phone first: the watch's 10:00–10:05 (300) + the phone's 300 = 600.
    static let watch = WireFixtures.sample(
        "step_count", source: "Apple Watch", start: "2026-01-05T10:00:00Z", end: "2026-01-05T10:10:00Z",
        value: 600)
    static let phone = WireFixtures.sample(
        "step_count", source: "iPhone", start: "2026-01-05T10:05:00Z", end: "2026-01-05T10:15:00Z", value: 300
    )
    static let watchFirst = 750.0
    static let phoneFirst = 600.0

    static func sleep(_ source: String, _ stage: String, _ start: String, _ end: String) -> WireSample {
        WireFixtures.sample("sleep_analysis", source: source, start: start, end: end, category: stage)
    }

    /// One night seen by the watch and by AutoSleep: the watch wins by default.
    static let night = [
        sleep("Apple Watch", "in_bed", "2026-01-04T22:00:00Z", "2026-01-05T06:00:00Z"),
        sleep("Apple Watch", "asleep_core", "2026-01-04T22:30:00Z", "2026-01-05T05:30:00Z"),
        sleep("AutoSleep", "in_bed", "2026-01-04T21:30:00Z", "2026-01-05T06:30:00Z"),
        sleep("AutoSleep", "asleep_unspecified", "2026-01-04T22:00:00Z", "2026-01-05T06:00:00Z"),
    ]

    @Test(arguments: CollectorBackend.allCases) func aPutIsAnsweredBackAndKeptAcrossRestarts(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            #expect(try await client.priority() == [])
            let put = try await client.putPriority(["iPhone", "Oura"])
            #expect(put.status == .ok)
            #expect(put.json["sources"] as? [String] == ["iPhone", "Oura"])
            #expect(try await client.priority() == ["iPhone", "Oura"])
        }
        try await harness.run(on: backend) { client in
            let restarted = try await client.priority()
            #expect(restarted == ["iPhone", "Oura"])
            #expect(try await client.putPriority([]).status == .ok)
            #expect(try await client.priority() == [])
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aPriorityTheRulesRefuseChangesNothing(_ backend: CollectorBackend)
        async throws
    {
        let longest = String(repeating: "é", count: 200)
        try await harness.run(on: backend) { client in
            #expect(try await client.putPriority(["Oura"]).status == .ok)
            let refused: [[String]] = [
                (0...100).map { "Source \($0)" },
                [""],
                [longest + "x"],
                ["Oura", "iPhone", "Oura"],
                // One name, composed and decomposed: the projections would match both alike.
                ["Caf\u{E9}", "Cafe\u{301}"],
            ]
            for sources in refused {
                let response = try await client.putPriority(sources)
                #expect(response.status == .unprocessableContent, "\(sources.count) names")
                #expect(response.errorCode == "invalid_source_priority")
            }
            for (body, code) in [
                ("nope", "invalid_json"), (#"{"sources": "Oura"}"#, "invalid_body"), ("{}", "invalid_body"),
                (#"{"sources": [1]}"#, "invalid_body"),
            ] {
                let response = try await client.putPriority(Array(body.utf8))
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode == code, "\(body)")
            }
            #expect(
                try await client.putPriority(Array(#"{"sources": []}"#.utf8), contentType: "text/plain")
                    .status == .unsupportedMediaType)
            #expect(
                try await client.putPriority(Array(#"{"sources": []}"#.utf8), token: nil).status
                    == .unauthorized)
            #expect(try await client.get("/v1/settings/source-priority", token: nil).status == .unauthorized)
            #expect(try await client.priority() == ["Oura"])

            #expect(try await client.putPriority((1...100).map { "Source \($0)" }).status == .ok)
            #expect(try await client.putPriority([longest]).status == .ok)
            #expect(try await client.priority() == [longest])

            let delete = try await client.execute(
                uri: "/v1/settings/source-priority", method: .delete, headers: [:])
            #expect(delete.status == .methodNotAllowed)
            #expect(delete.headers[.allow] == "GET, PUT")
        }
    }

    @Test(arguments: CollectorBackend.allCases) func eachUserHasTheirOwnPriority(_ backend: CollectorBackend)
        async throws
    {
        try await harness.run(on: backend) { client in
            let steps = WireFixtures.batch("steps", [Self.watch, Self.phone])
            let stored = try await client.post(steps)
            #expect(stored.status == .ok)
            #expect(try await client.post(steps, token: CollectorHarness.bob).status == .ok)
            #expect(try await client.putPriority(["iPhone"]).status == .ok)
            #expect(try await client.priority(token: CollectorHarness.bob) == [])
            #expect(
                try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [
                    Self.phoneFirst
                ])
            #expect(
                try await client.daily("step_count", "2026-01-05", "2026-01-05", token: CollectorHarness.bob)
                    .map(\.sum)
                    == [Self.watchFirst])
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aNewOrderRecomputesRollupsAndNightsAlreadyComputed(
        _ backend: CollectorBackend
    ) async throws {
        try await harness.run(on: backend) { client in
            let stored = try await client.post(
                WireFixtures.batch("day", [Self.watch, Self.phone] + Self.night))
            #expect(stored.status == .ok)
            #expect(
                try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [
                    Self.watchFirst
                ])
            #expect(try await client.sleep("2026-01-05", "2026-01-05").map(\.source) == ["Apple Watch"])

            #expect(try await client.putPriority(["iPhone", "AutoSleep"]).status == .ok)
            #expect(
                try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [
                    Self.phoneFirst
                ])
            #expect(try await client.sleep("2026-01-05", "2026-01-05").map(\.source) == ["AutoSleep"])

            // Back to the default order.
            #expect(try await client.putPriority([]).status == .ok)
            #expect(
                try await client.daily("step_count", "2026-01-05", "2026-01-05").map(\.sum) == [
                    Self.watchFirst
                ])
            #expect(try await client.sleep("2026-01-05", "2026-01-05").map(\.source) == ["Apple Watch"])
        }
    }

    /// The background refresher, not only the read path, computes in each user's order; the
    /// same priority again marks nothing.
    @Test func theBackgroundRefreshUsesEachUsersPriority() async throws {
        let storage = try SQLiteCollectorStorage(
            directory: harness.directory.child("data"), users: ["alice", "bob"], catalog: harness.catalog)
        let batch = BatchValidator(catalog: harness.catalog).validate(
            WireFixtures.batch("steps", [Self.watch, Self.phone]))
        for user in ["alice", "bob"] { _ = try await storage.apply(batch, user: user, bodyDigest: [1]) }
        while try await storage.refreshProjections(limit: 32) > 0 {}

        #expect(try await storage.setSourcePriority(["iPhone"], user: "alice"))
        let marked = try await storage.refreshProjections(limit: 0)
        #expect(marked > 0)
        #expect(try await storage.refreshProjections(limit: 1_000) == 0)
        #expect(try await storage.setSourcePriority(["iPhone"], user: "alice") == false)
        #expect(try await storage.refreshProjections(limit: 0) == 0)

        let day = CivilDate(text: "2026-01-05")!
        #expect(
            try await storage.dailyRollups(user: "alice", metric: "step_count", from: day, to: day).map(\.sum)
                == [Self.phoneFirst])
        #expect(
            try await storage.dailyRollups(user: "bob", metric: "step_count", from: day, to: day).map(\.sum)
                == [Self.watchFirst])
    }

    /// A database written before priorities existed gets their table, and a first priority
    /// marks the projections it already holds.
    @Test func aDatabaseFromBeforePrioritiesIsMigratedAndKeepsItsProjections() async throws {
        let data = harness.directory.child("data")
        do {
            let old = try SQLiteConnection.open(
                in: DatabaseDirectory(path: data), profile: .collector,
                migrations: Array(CollectorSchema.migrations.prefix(1)),
                nowMilliseconds: 0)
            try old.execute(
                """
                INSERT INTO users(id, name) VALUES (1, 'alice');
                INSERT INTO metrics(id, name) VALUES (1, 'step_count');
                INSERT INTO daily_rollups(user_id, metric_id, day, sum, count, sources, coverage_s, computed_ms)
                VALUES (1, 1, 20458, 750, 2, '["Apple Watch"]', 900, 0);
                """)
        }
        let storage = try SQLiteCollectorStorage(
            directory: data, users: ["alice", "bob"], catalog: harness.catalog)
        #expect(try await storage.sourcePriority(user: "alice") == [])
        #expect(try await storage.refreshProjections(limit: 0) == 0)
        #expect(try await storage.setSourcePriority(["iPhone"], user: "alice"))
        #expect(try await storage.refreshProjections(limit: 0) == 1)
    }
}
