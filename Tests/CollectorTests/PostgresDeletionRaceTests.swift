import Foundation
import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Logging
import PostgresNIO
import Testing

@testable import HealthETLCollectorPostgres
@testable import HealthETLServer

/// A sample's batch and the batch deleting that sample, in flight at the same moment on two
/// collectors of one database (an upload killed after sending goes on at its collector while the
/// next run, or a catch-up, sends the deletion to another): the deletion wins, as it does when
/// the two come one after the other. Each batch reads what the other writes (the insert reads the
/// deletions, the deletion reads the stored samples) before either commits.
@Suite(.serialized) struct PostgresDeletionRaceTests {
    static let logger = Logger(label: "test")

    @Test func aDeletionCommittingBesideItsSamplesFirstInsertLeavesItDeleted() async throws {
        let catalog = try MetricCatalog.bundled()
        let validator = BatchValidator(catalog: catalog)
        let sample = WireFixtures.sample(
            "step_count", source: "Watch", start: "2026-01-05T09:00:00Z", end: "2026-01-05T09:10:00Z", value: 40)
        let inserting = WireFixtures.batch("insert", [sample])
        let deleting = WireFixtures.batch(
            "delete", [],
            deletions: [
                WireDeletion(
                    id: sample.id, metric: "step_count", start: sample.start, deletedAt: "2026-01-06T08:00:00Z")
            ])
        try await PostgresSharedDatabaseTests.collectors(2, catalog: catalog) { storages in
            let client = storages[0].client
            let logger = Self.logger
            // An earlier sample of the month through each collector: its partition and ids are
            // made, so neither batch below waits for anything but the other and the feed head.
            for (index, storage) in storages.enumerated() {
                let earlier = WireFixtures.batch(
                    "earlier-\(index)",
                    [
                        WireFixtures.sample(
                            "step_count", source: "Watch", start: "2026-01-0\(index + 1)T09:00:00Z",
                            end: "2026-01-0\(index + 1)T09:10:00Z", value: 40)
                    ])
                _ = try await storage.apply(
                    validator.validate(earlier), user: "alice", bodyDigest: earlier.canonicalDigest())
            }
            // The user's feed head, held here, is the last row each batch writes: both batches do
            // everything else and wait for it (or for each other) until it is let go.
            let (insert, delete) = try await client.withConnection { holder in
                _ = try await holder.query("BEGIN", logger: logger)
                _ = try await holder.query(
                    "SELECT h.seq FROM feed_heads h JOIN users u ON u.id = h.user_id WHERE u.name = 'alice' FOR UPDATE",
                    logger: logger
                ).collect()
                let insert = Task {
                    try await storages[0].apply(
                        validator.validate(inserting), user: "alice", bodyDigest: inserting.canonicalDigest())
                }
                let delete = Task {
                    try await storages[1].apply(
                        validator.validate(deleting), user: "alice", bodyDigest: deleting.canonicalDigest())
                }
                let bothWait = try await eventually(within: 60) {
                    try await Self.backendsWaitingOnLocks(client) == 2
                }
                _ = try await holder.query("COMMIT", logger: logger)
                #expect(bothWait, "the two batches never both waited on a lock")
                return (insert, delete)
            }
            guard case .stored = try await insert.value, case .stored = try await delete.value else {
                Issue.record("both batches should have been stored")
                return
            }
            #expect(try await Self.count("samples", client) == 2, "the deleted sample is stored")
            #expect(try await Self.count("deletions", client) == 1)
            // The sample sent again later stays out, as after any deletion.
            let again = WireFixtures.batch("insert-again", [sample])
            _ = try await storages[0].apply(
                validator.validate(again), user: "alice", bodyDigest: again.canonicalDigest())
            #expect(try await Self.count("samples", client) == 2)
        }
    }

    /// Backends of this database waiting for a lock (a row's, a transaction's or an advisory one).
    static func backendsWaitingOnLocks(_ client: PostgresClient) async throws -> Int64 {
        var count: Int64 = 0
        for try await waiting in try await client.query(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            logger: logger
        ).decode(Int64.self) {
            count = waiting
        }
        return count
    }

    static func count(_ table: String, _ client: PostgresClient) async throws -> Int64 {
        var count: Int64 = 0
        for try await rows in try await client.query(
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger
        )
        .decode(Int64.self) {
            count = rows
        }
        return count
    }
}
