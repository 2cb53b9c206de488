import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import HealthETLWire
import Testing

@testable import HealthETLCollectorSQLite
@testable import HealthETLServer

/// A run of dirty days projected off the storage queue is stored only when no write changed its
/// days meanwhile; otherwise the days stay dirty and the next read recomputes them from all the
/// samples.
@Suite struct ProjectionJobTests {
    static let day = CivilDate(year: 2026, month: 1, day: 5)!

    static func steps(_ id: String, value: Double, at start: String, _ end: String) -> WireBatch {
        WireFixtures.batch(
            id, [WireFixtures.sample("step_count", source: "Watch", start: start, end: end, value: value)])
    }

    /// A fresh storage holding alice's 600 steps on the morning of `day`.
    static func storageWithOneBatch() async throws -> (SQLiteCollectorStorage, MetricCatalog, TemporaryDirectory) {
        let catalog = try MetricCatalog.bundled()
        let directory = TemporaryDirectory("collector-projection-job")
        let storage = try SQLiteCollectorStorage(
            directory: directory.child("data"), users: ["alice"], catalog: catalog)
        try await send(
            steps("one", value: 600, at: "2026-01-05T10:00:00Z", "2026-01-05T10:10:00Z"), to: storage,
            catalog: catalog)
        return (storage, catalog, directory)
    }

    /// Applies `batch` for alice.
    static func send(_ batch: WireBatch, to storage: SQLiteCollectorStorage, catalog: MetricCatalog) async throws {
        let validated = BatchValidator(catalog: catalog).validate(batch)
        _ = try await storage.apply(validated, user: "alice", bodyDigest: batch.canonicalDigest())
    }

    /// alice's first run of dirty step-count days.
    static func job(of storage: SQLiteCollectorStorage) async throws -> ProjectionJob? {
        let projector = storage.projector
        return try await storage.database.run { connection, state in
            try connection.writeTransaction {
                try projector.firstJob(
                    user: try state.userID("alice"), metric: try #require(state.existingMetricID("step_count")),
                    within: Int64.min...Int64.max, state: state, connection: connection)
            }
        }
    }

    static func store(
        _ job: ProjectionJob, in storage: SQLiteCollectorStorage, at now: Instant = .init(secondsSinceEpoch: 0)
    ) async throws -> Bool {
        let projector = storage.projector
        let result = job.project()
        return try await storage.database.run { connection, _ in
            try connection.writeTransaction {
                try projector.store(result, of: job, connection: connection, now: now)
            }
        }
    }

    static func dirtyDays(in storage: SQLiteCollectorStorage) async throws -> Int64? {
        try await storage.database.run { connection, _ in try connection.scalar("SELECT count(*) FROM dirty_days") }
    }

    @Test func aJobIsStoredWhenNothingChangedItsDays() async throws {
        let (storage, _, directory) = try await Self.storageWithOneBatch()
        defer { withExtendedLifetime(directory) {} }
        let job = try #require(try await Self.job(of: storage))
        #expect(job.samples.count == 1)
        #expect(try await Self.store(job, in: storage))
        // Every day the job covered is clean now, and what it stored is what a read gives.
        #expect(try await Self.job(of: storage) == nil)
        #expect(try await Self.dirtyDays(in: storage) == 0)
        #expect(
            try await storage.dailyRollups(user: "alice", metric: "step_count", from: Self.day, to: Self.day)
                .map(\.sum) == [600])
    }

    /// Two refreshes of one run at once (a read's and the background one's): the second finds it
    /// stored from the same samples and leaves it, so the day keeps the answer already given.
    @Test func aJobAnotherRefreshStoredFirstIsLeftAsStored() async throws {
        let (storage, _, directory) = try await Self.storageWithOneBatch()
        defer { withExtendedLifetime(directory) {} }
        let first = try #require(try await Self.job(of: storage))
        let second = try #require(try await Self.job(of: storage))
        #expect(try await Self.store(first, in: storage))
        let stored = try await storage.dailyRollups(user: "alice", metric: "step_count", from: Self.day, to: Self.day)
        #expect(try await Self.store(second, in: storage, at: Instant(secondsSinceEpoch: 9)))
        #expect(
            try await storage.dailyRollups(user: "alice", metric: "step_count", from: Self.day, to: Self.day)
                == stored)
    }

    @Test func aJobAWriteOvertookIsNotStored() async throws {
        let (storage, catalog, directory) = try await Self.storageWithOneBatch()
        defer { withExtendedLifetime(directory) {} }
        let job = try #require(try await Self.job(of: storage))
        let dirtyBefore = try await Self.dirtyDays(in: storage)
        // A batch lands on the same day while the job is being projected.
        try await Self.send(
            Self.steps("two", value: 400, at: "2026-01-05T11:00:00Z", "2026-01-05T11:10:00Z"), to: storage,
            catalog: catalog)
        #expect(try await !Self.store(job, in: storage))
        #expect(try await Self.dirtyDays(in: storage) == dirtyBefore)
        // The read recomputes the day from both samples.
        #expect(
            try await storage.dailyRollups(user: "alice", metric: "step_count", from: Self.day, to: Self.day)
                .map(\.sum) == [1000])
    }

    @Test func aNewSourceOrderOvertakesAJobToo() async throws {
        let (storage, _, directory) = try await Self.storageWithOneBatch()
        defer { withExtendedLifetime(directory) {} }
        let job = try #require(try await Self.job(of: storage))
        #expect(try await storage.setSourcePriority(["Phone"], user: "alice"))
        #expect(try await !Self.store(job, in: storage))
    }
}
