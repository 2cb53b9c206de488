import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Logging
import PostgresNIO
import Testing

@testable import HealthETLCollector

/// Several collectors on one database, at the storage level: each with its own pool, as separate
/// `serve` processes would be. The same batch sent to all at once is stored once; batches touching
/// the same day from several collectors, with their background refreshes racing, end in the
/// projections one collector alone computes.
@Suite(.serialized) struct PostgresSharedDatabaseTests {
    static let logger = Logger(label: "test")

    /// Runs `body` with `count` storages on one new database, their pools running.
    static func collectors<T: Sendable>(
        _ count: Int, catalog: MetricCatalog, _ body: @Sendable ([PostgresCollectorStorage]) async throws -> T
    ) async throws -> T {
        let (cluster, database) = try SharedPostgresCluster.newDatabase()
        let clients = (0..<count).map { _ in
            PostgresClient(
                configuration: .init(
                    host: "127.0.0.1", port: cluster.port, username: cluster.user, password: nil, database: database,
                    tls: .disable))
        }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            for client in clients {
                group.addTask {
                    await client.run()
                    return nil
                }
            }
            defer { group.cancelAll() }
            let storages = clients.map {
                PostgresCollectorStorage(client: $0, catalog: catalog, logger: Self.logger)
            }
            try await withThrowingTaskGroup(of: Void.self) { starting in
                for storage in storages { starting.addTask { try await storage.prepare(users: ["alice", "bob"]) } }
                try await starting.waitForAll()
            }
            return try await body(storages)
        }
    }

    /// Half-minute step samples from minute `first` of `hour` on 2026-01-05.
    static func steps(_ count: Int, hour: Int, source: String, first: Int = 0) -> [WireSample] {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return (first..<(first + count)).map { minute in
            WireFixtures.sample(
                "step_count", source: source, start: "2026-01-05T\(two(hour)):\(two(minute)):00Z",
                end: "2026-01-05T\(two(hour)):\(two(minute)):30Z", value: Double(10 + minute))
        }
    }

    @Test func theSameBatchSentToThreeCollectorsAtOnceIsStoredOnce() async throws {
        let catalog = try MetricCatalog.bundled()
        let batch = WireFixtures.batch("shared", Self.steps(50, hour: 9, source: "Watch"))
        let validated = BatchValidator(catalog: catalog).validate(batch)
        let digest = batch.canonicalDigest()
        try await Self.collectors(3, catalog: catalog) { storages in
            let outcomes = try await withThrowingTaskGroup(of: BatchOutcome.self) { group in
                for storage in storages {
                    group.addTask { try await storage.apply(validated, user: "alice", bodyDigest: digest) }
                }
                var all: [BatchOutcome] = []
                for try await outcome in group { all.append(outcome) }
                return all
            }
            let stored = outcomes.compactMap { if case .stored(let response) = $0 { response } else { nil } }
            let replayed = outcomes.compactMap { if case .replayed(let response) = $0 { response } else { nil } }
            #expect(stored.count == 1)
            #expect(replayed.count == 2)
            #expect(replayed.allSatisfy { $0 == stored.first })
            let rollups = try await storages[2].dailyRollups(
                user: "alice", metric: "step_count", from: CivilDate(year: 2026, month: 1, day: 5)!,
                to: CivilDate(year: 2026, month: 1, day: 5)!)
            #expect(rollups.map(\.sum) == [Double((0..<50).map { 10 + $0 }.reduce(0, +))])
        }
    }

    @Test func oneDayWrittenAndRefreshedByThreeCollectorsAtOnceEndsRight() async throws {
        let catalog = try MetricCatalog.bundled()
        let validator = BatchValidator(catalog: catalog)
        // Three sources' steps in three hours of one day, each in ten batches, spread over the
        // collectors; every collector's background refresh runs between them.
        let batches = (0..<30).map { index in
            let source = ["Watch", "iPhone", "Oura"][index % 3]
            // Ten batches per source: minutes 0-5, 6-11, …
            let samples = Self.steps(6, hour: 8 + index % 3, source: source, first: (index / 3) * 6)
            return WireFixtures.batch("b\(index)", samples)
        }
        let day = CivilDate(year: 2026, month: 1, day: 5)!
        let expected = try await {
            let directory = TemporaryDirectory("collector-one")
            let alone = try SQLiteCollectorStorage(
                directory: directory.child("data"), users: ["alice"], catalog: catalog)
            for batch in batches {
                _ = try await alone.apply(validator.validate(batch), user: "alice", bodyDigest: batch.canonicalDigest())
            }
            return try await alone.dailyRollups(user: "alice", metric: "step_count", from: day, to: day)
        }()
        try await Self.collectors(3, catalog: catalog) { storages in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, storage) in storages.enumerated() {
                    group.addTask {
                        for batch in batches.enumerated().filter({ $0.offset % 3 == index }).map(\.element) {
                            _ = try await storage.apply(
                                validator.validate(batch), user: "alice", bodyDigest: batch.canonicalDigest())
                            _ = try await storage.refreshProjections(limit: 7)
                        }
                    }
                }
                try await group.waitForAll()
            }
            for storage in storages {
                while try await storage.refreshProjections(limit: 100) > 0 {}
            }
            let rollups = try await storages[0].dailyRollups(user: "alice", metric: "step_count", from: day, to: day)
            #expect(rollups.map(\.sum) == expected.map(\.sum))
            #expect(rollups.map(\.sources) == expected.map(\.sources))
            #expect(rollups.map(\.count) == expected.map(\.count))
        }
    }
}
