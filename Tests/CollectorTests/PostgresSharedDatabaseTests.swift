import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Logging
import PostgresNIO
import Testing

@testable import HealthETLCollectorPostgres
@testable import HealthETLCollectorSQLite
@testable import HealthETLCollectorStorage
@testable import HealthETLServer

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
            let stored = outcomes.compactMap { if case .stored(let response, _) = $0 { response } else { nil } }
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

/// A year of one metric marked dirty and read while another collector's background refresh loops:
/// every day ends as the SQLite storage computes it (the year benchmark once found a day missing).
@Suite(.serialized) struct PostgresRefreshRaceTests {
    @Test func aYearReadWhileAnotherCollectorRefreshesEndsAsSQLiteComputesIt() async throws {
        let catalog = try MetricCatalog.bundled()
        let validator = BatchValidator(catalog: catalog)
        // Five-minute exercise samples every day of 2025, a few a day, in batches of a month.
        var batches: [WireBatch] = []
        var samples: [WireSample] = []
        for day in 0..<365 {
            let date = CivilDate(daysSinceEpoch: CivilDate(year: 2025, month: 1, day: 1)!.daysSinceEpoch + Int64(day))
            for hour in [7, 12, 18] where (day + hour) % 4 != 0 {
                samples.append(
                    WireFixtures.sample(
                        "apple_exercise_time", source: "Watch", start: "\(date)T\(hour):00:00Z",
                        end: "\(date)T\(hour):05:00Z", value: 5, offset: 3600))
            }
            if samples.count >= 80 || day == 364 {
                batches.append(WireFixtures.batch("m\(batches.count)", samples))
                samples = []
            }
        }
        let from = CivilDate(year: 2025, month: 1, day: 1)!
        let to = CivilDate(year: 2025, month: 12, day: 31)!
        let directory = TemporaryDirectory("collector-year")
        let alone = try SQLiteCollectorStorage(directory: directory.child("data"), users: ["alice"], catalog: catalog)
        for batch in batches {
            _ = try await alone.apply(validator.validate(batch), user: "alice", bodyDigest: batch.canonicalDigest())
        }
        let expected = try await alone.dailyRollups(user: "alice", metric: "apple_exercise_time", from: from, to: to)
        #expect(expected.count == 365)
        let written = batches
        try await PostgresSharedDatabaseTests.collectors(2, catalog: catalog) { storages in
            for batch in written {
                _ = try await storages[0].apply(
                    validator.validate(batch), user: "alice", bodyDigest: batch.canonicalDigest())
            }
            for round in 0..<3 {
                // Every day dirty again (as a new source order makes them), then read while the
                // other collector refreshes in small steps.
                #expect(try await storages[0].setSourcePriority(round % 2 == 0 ? ["Other"] : [], user: "alice"))
                let rollups = try await withThrowingTaskGroup(of: [WireDailyRollup]?.self) { group in
                    group.addTask {
                        while try await storages[1].refreshProjections(limit: 17) > 0 {}
                        return nil
                    }
                    group.addTask {
                        try await storages[0].dailyRollups(
                            user: "alice", metric: "apple_exercise_time", from: from, to: to)
                    }
                    var read: [WireDailyRollup] = []
                    for try await result in group { if let result { read = result } }
                    return read
                }
                #expect(rollups.map(\.day) == expected.map(\.day), "round \(round)")
                #expect(rollups.map(\.sum) == expected.map(\.sum), "round \(round)")
            }
        }
    }
}
