import Foundation
import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Logging
import PostgresNIO
import Testing

@testable import HealthETLCollectorPostgres
@testable import HealthETLCollectorSQLite
@testable import HealthETLServer

/// Two collectors of one database refreshing adjacent dirty days of sleep at the same moment:
/// day N's computation and day N + 1's both rewrite night N + 1. Each must commit, and the nights
/// must end as one collector alone computes them (a duplicate `sleep_nights` key failed one).
@Suite(.serialized) struct PostgresNightRaceTests {
    static let logger = Logger(label: "test")

    /// A night of core sleep, 22:00 to 06:00 UTC, ending on the morning of January `day`.
    static func night(endingOn day: Int) -> WireSample {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return WireFixtures.sample(
            "sleep_analysis", source: "Watch", start: "2026-01-\(two(day - 1))T22:00:00Z",
            end: "2026-01-\(two(day))T06:00:00Z", category: "asleep_core")
    }

    @Test func adjacentDaysRefreshedAtOnceBothCommitAndTheNightsEndRight() async throws {
        let catalog = try MetricCatalog.bundled()
        let validator = BatchValidator(catalog: catalog)
        let batch = WireFixtures.batch("nights", (3...9).map(Self.night(endingOn:)))
        let (first, last) = (CivilDate(year: 2026, month: 1, day: 1)!, CivilDate(year: 2026, month: 1, day: 12)!)
        let expected = try await {
            let directory = TemporaryDirectory("collector-nights")
            let alone = try SQLiteCollectorStorage(
                directory: directory.child("data"), users: ["alice"], catalog: catalog)
            _ = try await alone.apply(validator.validate(batch), user: "alice", bodyDigest: batch.canonicalDigest())
            return try await alone.sleepNights(user: "alice", from: first, to: last)
        }()
        #expect(expected.count == 7)
        try await PostgresSharedDatabaseTests.collectors(2, catalog: catalog) { storages in
            let client = storages[0].client
            let logger = Self.logger
            _ = try await storages[0].apply(
                validator.validate(batch), user: "alice", bodyDigest: batch.canonicalDigest())
            // The user's source order, held here, is read by a refresh after it has taken its
            // dirty day: each collector takes one (the first two), and both wait here.
            let refreshes = try await client.withConnection { holder in
                _ = try await holder.query("BEGIN", logger: logger)
                _ = try await holder.query(
                    """
                    SELECT p.sources FROM source_priorities p JOIN users u ON u.id = p.user_id
                    WHERE u.name = 'alice' FOR UPDATE
                    """, logger: logger
                ).collect()
                let refreshes = storages.map { storage in Task { try await storage.refreshProjections(limit: 1) } }
                let bothWait = try await eventually(within: 60) {
                    try await PostgresDeletionRaceTests.backendsWaitingOnLocks(client) == 2
                }
                _ = try await holder.query("COMMIT", logger: logger)
                #expect(bothWait, "the two refreshes never both waited on a lock")
                return refreshes
            }
            for refresh in refreshes {
                await #expect(throws: Never.self) { _ = try await refresh.value }
            }
            while try await storages[1].refreshProjections(limit: 100) > 0 {}
            for storage in storages {
                let nights = try await storage.sleepNights(user: "alice", from: first, to: last)
                #expect(nights.map(\.night) == expected.map(\.night))
                #expect(nights.map(\.asleepSeconds) == expected.map(\.asleepSeconds))
            }
        }
    }
}
