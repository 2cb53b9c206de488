import HealthETLCollectorStorage
import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Testing

@testable import HealthETLCollectorSQLite
@testable import HealthETLServer

/// A batch whose samples interleave more metrics than the batch writer remembers at once: every
/// sample lands under its own metric, every day it touches is recomputed, and a metric's longest
/// sample is kept across a restart, where the next refresh reaches back for it.
@Suite struct InterleavedMetricsBatchTests {
    /// Eleven summed metrics, more than the eight the writer keeps looked up.
    static let metrics = [
        "step_count", "distance_walking_running", "distance_cycling", "distance_swimming", "active_energy_burned",
        "total_calories_burned", "flights_climbed", "elevation_gained", "apple_exercise_time", "apple_stand_time",
        "push_count",
    ]
    static let days = ["2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08"]

    /// Four samples a day of each metric, one metric after another, longer each hour; then one
    /// step-count sample four and a half days long, after the writer has forgotten step_count.
    static func interleaved() -> WireBatch {
        var samples: [WireSample] = []
        for day in days {
            for (slot, hour) in ["01", "07", "13", "19"].enumerated() {
                for (index, metric) in metrics.enumerated() {
                    let minutes = 10 * (slot + 1)
                    samples.append(
                        WireFixtures.sample(
                            metric, source: "Watch", start: "\(day)T\(hour):00:00Z",
                            end: "\(day)T\(hour):\(minutes):00Z", value: Double((index + 1) * (slot + 2))))
                }
            }
        }
        samples.append(
            WireFixtures.sample(
                "step_count", source: "Phone", start: "2026-01-05T00:00:00Z", end: "2026-01-09T12:00:00Z",
                value: 10_800))
        return WireFixtures.batch("interleaved", samples)
    }

    /// What the core's calculator makes of `samples` for `metric` over `days`: day -> (sum, count).
    static func expected(_ samples: [Sample], metric: String, days: Set<CivilDate>, catalog: MetricCatalog) throws
        -> [String: [Double?]]
    {
        let definition = try #require(catalog.metric(named: metric)?.definition)
        let rollups = DailyRollupCalculator(metric: definition, priority: SourcePriority())
            .rollups(for: samples.filter { $0.metric == metric }, days: days)
        return Dictionary(uniqueKeysWithValues: rollups.map { ($0.day.description, [$0.sum, Double($0.count)]) })
    }

    static func stored(_ storage: SQLiteCollectorStorage, metric: String, from: CivilDate, to: CivilDate)
        async throws -> [String: [Double?]]
    {
        let rollups = try await storage.dailyRollups(user: "alice", metric: metric, from: from, to: to)
        return Dictionary(uniqueKeysWithValues: rollups.map { ($0.day, [$0.sum, Double($0.count)]) })
    }

    @Test func everyMetricOfAnInterleavedBatchIsProjectedAndItsLongestSampleOutlivesARestart() async throws {
        let catalog = try MetricCatalog.bundled()
        let directory = TemporaryDirectory("collector-interleaved-metrics")
        let data = directory.child("data")
        let validator = BatchValidator(catalog: catalog)
        let first = Self.interleaved()
        let validated = validator.validate(first)
        #expect(validated.samples.count == first.samples.count)
        let storage = try SQLiteCollectorStorage(directory: data, users: ["alice"], catalog: catalog)
        _ = try await storage.apply(validated, user: "alice", bodyDigest: first.canonicalDigest())

        let from = try #require(CivilDate(text: "2026-01-04"))
        let to = try #require(CivilDate(text: "2026-01-10"))
        let days = Set((from.daysSinceEpoch...to.daysSinceEpoch).map { CivilDate(daysSinceEpoch: $0) })
        for metric in Self.metrics {
            let stored = try await Self.stored(storage, metric: metric, from: from, to: to)
            #expect(stored.count >= Self.days.count, "\(metric): \(stored.count) days")
            #expect(
                stored == (try Self.expected(validated.samples, metric: metric, days: days, catalog: catalog)),
                "\(metric)")
        }

        // After a restart a short sample on the long one's last day dirties only days near it; the
        // refresh must still load the long sample, from four days before.
        let restarted = try SQLiteCollectorStorage(directory: data, users: ["alice"], catalog: catalog)
        let second = WireFixtures.batch(
            "after-restart",
            [
                WireFixtures.sample(
                    "step_count", source: "Watch", start: "2026-01-09T10:00:00Z", end: "2026-01-09T10:10:00Z",
                    value: 500)
            ])
        let secondValidated = validator.validate(second)
        _ = try await restarted.apply(secondValidated, user: "alice", bodyDigest: second.canonicalDigest())
        let all = validated.samples + secondValidated.samples
        let expected = try Self.expected(all, metric: "step_count", days: days, catalog: catalog)
        let stored = try await Self.stored(restarted, metric: "step_count", from: from, to: to)
        #expect(stored["2026-01-09"] == expected["2026-01-09"])
        #expect(stored == expected)
    }
}
