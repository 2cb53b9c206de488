import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import Testing

@testable import HealthETLCollectorSQLite

/// A batch whose transaction fails leaves nothing behind, in the database or in what the storage
/// remembers between batches: the next batch of a metric it was the first to bring is stored
/// where reads find it, before and after the collector restarts.
@Suite struct RolledBackBatchTests {
    static func stepCount(in storage: SQLiteCollectorStorage) async throws -> Int {
        try await storage.samples(
            user: "alice", metric: "step_count", starts: SampleTextsTests.everything, after: nil, limit: 10
        ).count
    }

    @Test func aMetricFirstBroughtByARolledBackBatchIsStoredByTheNextOne() async throws {
        let catalog = try MetricCatalog.bundled()
        let directory = TemporaryDirectory("collector-rolled-back-batch")
        let data = directory.child("data")
        let storage = try SQLiteCollectorStorage(directory: data, users: ["alice"], catalog: catalog)
        // A second connection makes the batch's last statement fail, as a full disk would.
        let other = try SQLiteConnection.open(
            in: DatabaseDirectory(path: data), profile: .collector, migrations: CollectorSchema.migrations,
            nowMilliseconds: 0)
        try other.execute(
            "CREATE TRIGGER refuse_batches BEFORE INSERT ON batches BEGIN SELECT RAISE(ABORT, 'refused'); END")

        await #expect(throws: SQLiteError.self) {
            try await ProjectionJobTests.send(
                ProjectionJobTests.steps("first", value: 600, at: "2026-01-05T10:00:00Z", "2026-01-05T10:10:00Z"),
                to: storage, catalog: catalog)
        }
        #expect(try await Self.stepCount(in: storage) == 0)
        try other.execute("DROP TRIGGER refuse_batches")
        try await ProjectionJobTests.send(
            ProjectionJobTests.steps("second", value: 600, at: "2026-01-05T11:00:00Z", "2026-01-05T11:10:00Z"),
            to: storage, catalog: catalog)

        #expect(try await Self.stepCount(in: storage) == 1)
        #expect(try other.scalar("SELECT count(*) FROM metrics WHERE name = 'step_count'") == 1)
        let restarted = try SQLiteCollectorStorage(directory: data, users: ["alice"], catalog: catalog)
        #expect(try await Self.stepCount(in: restarted) == 1, "the stored sample is found after a restart")
    }
}
