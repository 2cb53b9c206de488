import Foundation
import HealthETLCollectorStorage
import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Logging
import PostgresNIO
import Testing

@testable import HealthETLCollectorPostgres
@testable import HealthETLCollectorSQLite
@testable import HealthETLServer

/// Batches applied to the PostgreSQL storage and to the SQLite one answer byte for byte alike:
/// new samples, a replay, another body under a used id, duplicates within a batch, deletions, a
/// sample back after its deletion in the order they happened, a late deletion; and compute the
/// same daily rollups and sleep nights from them, before and after a new source order.
@Suite(.serialized) struct PostgresBatchTests {
    static let steps = [
        WireFixtures.sample(
            "step_count", source: "Watch", start: "2026-01-05T10:00:00Z", end: "2026-01-05T10:10:00Z", value: 600,
            offset: 3600, timeZone: "Europe/Berlin", device: "Apple Watch"),
        WireFixtures.sample(
            "step_count", source: "Watch", start: "2026-01-05T11:00:00Z", end: "2026-01-05T11:10:00Z", value: 400),
        WireFixtures.sample(
            "sleep_analysis", source: "Watch", start: "2025-12-31T23:00:00Z", end: "2026-01-01T01:00:00Z",
            category: "asleep_core"),
    ]

    /// The batches in order, with the body digest each is sent with.
    static func script() -> [(WireBatch, [UInt8])] {
        let deletion = WireDeletion(
            id: steps[0].id, metric: "step_count", start: steps[0].start, deletedAt: "2026-01-06T00:00:00Z")
        var back = steps[0]
        back.restoresDeletionAt = "2026-01-06T00:00:00Z"
        var older = steps[0]
        older.restoresDeletionAt = "2026-01-05T23:00:00Z"
        let batches = [
            WireFixtures.batch("add", steps + [steps[1]]),
            WireFixtures.batch("add", steps + [steps[1]]),
            WireFixtures.batch("delete", [], deletions: [deletion, deletion]),
            WireFixtures.batch("stale", [steps[0]]),
            WireFixtures.batch("older", [older]),
            WireFixtures.batch("back", [back]),
            WireFixtures.batch("late", [], deletions: [deletion]),
            WireFixtures.batch("stale-again", [steps[0]]),
        ]
        var script = batches.map { ($0, $0.canonicalDigest()) }
        // The same id again with another body.
        script.append((WireFixtures.batch("add", [steps[1]]), WireFixtures.batch("add", [steps[1]]).canonicalDigest()))
        return script
    }

    @Test func everyBatchAndProjectionIsAnsweredAsSQLiteAnswersIt() async throws {
        let binaries = try #require(PostgresCluster.installedBinaries(), "PostgreSQL is not installed (make deps)")
        let cluster = try PostgresCluster(binaries: binaries)
        defer { cluster.stop() }
        try cluster.createDatabase("batches")
        let catalog = try MetricCatalog.bundled()
        let clock = Clock.fixed(Instant(secondsSinceEpoch: 1_767_600_000))
        let directory = TemporaryDirectory("collector-pg-compare")
        let sqlite = try SQLiteCollectorStorage(
            directory: directory.child("data"), users: ["alice", "bob"], catalog: catalog, clock: clock)
        let client = PostgresClient(
            configuration: .init(
                host: "127.0.0.1", port: cluster.port, username: cluster.user, password: nil, database: "batches",
                tls: .disable))
        let validator = BatchValidator(catalog: catalog)
        try await PostgresRunning.with(client) { client in
            let postgres = PostgresCollectorStorage(
                client: client, catalog: catalog, clock: clock, logger: Logger(label: "test"))
            try await postgres.prepare(users: ["alice", "bob"])
            for (batch, digest) in Self.script() {
                let validated = validator.validate(batch)
                let expected = try await sqlite.apply(validated, user: "alice", bodyDigest: digest)
                let answered = try await postgres.apply(validated, user: "alice", bodyDigest: digest)
                #expect(answered == expected, "batch \(batch.batchID)")
            }
            // The projections both compute from those samples, before and after a new source order.
            for preferred in [[], ["Oura", "Watch"]] {
                #expect(try await sqlite.setSourcePriority(preferred, user: "alice") == !preferred.isEmpty)
                #expect(try await postgres.setSourcePriority(preferred, user: "alice") == !preferred.isEmpty)
                let from = CivilDate(year: 2025, month: 12, day: 30)!
                let to = CivilDate(year: 2026, month: 1, day: 7)!
                for metric in ["step_count", "sleep_analysis"] {
                    let expected = try await sqlite.dailyRollups(user: "alice", metric: metric, from: from, to: to)
                    #expect(!expected.isEmpty)
                    #expect(
                        try await postgres.dailyRollups(user: "alice", metric: metric, from: from, to: to) == expected)
                }
                let nights = try await sqlite.sleepNights(user: "alice", from: from, to: to)
                #expect(!nights.isEmpty)
                #expect(try await postgres.sleepNights(user: "alice", from: from, to: to) == nights)
                #expect(try await postgres.dailyRollups(user: "bob", metric: "step_count", from: from, to: to) == [])
                #expect(try await postgres.refreshProjections(limit: 1_000) == sqlite.refreshProjections(limit: 1_000))
            }
            // The MCP tools' reads beyond the projections: summaries, sources, pages, activity.
            #expect(try await postgres.metricSummaries(user: "alice") == sqlite.metricSummaries(user: "alice"))
            #expect(try await !sqlite.metricSummaries(user: "alice").isEmpty)
            #expect(try await postgres.metricSummaries(user: "bob") == [])
            #expect(try await postgres.sourceSummaries(user: "alice") == sqlite.sourceSummaries(user: "alice"))
            #expect(try await sqlite.sourceSummaries(user: "alice").first?.devices == ["Apple Watch"])
            let everything = Int64.min..<Int64.max
            for metric in ["step_count", "sleep_analysis", "heart_rate"] {
                let whole = try await sqlite.samples(
                    user: "alice", metric: metric, starts: everything, after: nil, limit: 100)
                #expect(
                    try await postgres.samples(
                        user: "alice", metric: metric, starts: everything, after: nil, limit: 100) == whole)
                // One at a time, each page after the last: the same samples.
                var paged: [Sample] = []
                while let page = try await postgres.samples(
                    user: "alice", metric: metric, starts: everything,
                    after: paged.last.map { ($0.start.millisecondsSinceEpoch, $0.id) }, limit: 1
                ).first {
                    paged.append(page)
                }
                #expect(paged == whole, "\(metric)")
                #expect(
                    try await postgres.samples(user: "bob", metric: metric, starts: everything, after: nil, limit: 100)
                        == [])
            }
            let activity = try await sqlite.activity(user: "alice")
            #expect(activity.samples == 3 && activity.lastBatch != nil)
            #expect(try await postgres.activity(user: "alice") == activity)
            #expect(
                try await postgres.activity(user: "bob")
                    == UserActivity(lastBatch: nil, daysAwaitingRefresh: 0, samples: 0))
            let rows = try await client.query("SELECT count(*) FROM samples", logger: Logger(label: "test"))
                .collect()
            let count = try rows.first?.decode(Int64.self)
            #expect(count == 3)
            #expect(try await !postgres.setSourcePriority(["Oura", "Watch"], user: "alice"))
            #expect(try await postgres.sourcePriority(user: "alice") == ["Oura", "Watch"])
            #expect(try await postgres.sourcePriority(user: "bob") == [])
        }
    }
}
