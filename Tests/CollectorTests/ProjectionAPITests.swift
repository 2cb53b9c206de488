import Foundation
import HealthETLCore
import HealthETLWire
import Testing

/// Projections served by the collector, on hand-computed fixtures. (The calculators' own rules
/// are tested in HealthETLCoreTests; these prove the server stores, marks and serves them.)
@Suite struct ProjectionAPITests {
    let harness = try! CollectorHarness()

    @Test(arguments: CollectorBackend.allCases) func overlappingStepSourcesAreNotCountedTwice(
        _ backend: CollectorBackend
    ) async throws {
        // Watch 10:00–10:10, 600 steps; phone 10:05–10:15, 300 steps (30 a minute).
        // 10:00–10:05 watch 300; 10:05–10:10 the watch wins, 300; 10:10–10:15 only the phone,
        // 300 × 5/10 = 150. Total 750, not 900.
        let watch = WireFixtures.sample(
            "step_count", source: "Apple Watch", start: "2026-01-05T10:00:00Z", end: "2026-01-05T10:10:00Z", value: 600)
        let phone = WireFixtures.sample(
            "step_count", source: "iPhone", start: "2026-01-05T10:05:00Z", end: "2026-01-05T10:15:00Z", value: 300)
        try await harness.run(on: backend) { client in
            #expect(try await client.post(WireFixtures.batch("steps", [phone, watch])).status == .ok)
            let days = try await client.daily("step_count", "2026-01-01", "2026-01-31")
            #expect(days.count == 1)
            let day = try #require(days.first)
            #expect(day.day == "2026-01-05")
            #expect(abs((day.sum ?? 0) - 750) < 1e-9)
            #expect(day.sources == ["Apple Watch", "iPhone"])
            #expect(day.avg == nil)
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aSampleSpanningMidnightIsSplitByItsLocalDays(
        _ backend: CollectorBackend
    ) async throws {
        // 23:30–00:30 UTC, 120 kcal: 60 on each UTC day. The same hour recorded at +01:00 is
        // 00:30–01:30 local: all of it on the 6th.
        let utc = WireFixtures.sample(
            "active_energy_burned", source: "Apple Watch", start: "2026-01-05T23:30:00Z", end: "2026-01-06T00:30:00Z",
            value: 120)
        let paris = WireFixtures.sample(
            "basal_energy_burned", source: "Apple Watch", start: "2026-01-05T23:30:00Z", end: "2026-01-06T00:30:00Z",
            value: 120,
            offset: 3600)
        try await harness.run(on: backend) { client in
            #expect(try await client.post(WireFixtures.batch("midnight", [utc, paris])).status == .ok)
            let active = try await client.daily("active_energy_burned", "2026-01-05", "2026-01-06")
            #expect(active.map(\.day) == ["2026-01-05", "2026-01-06"])
            #expect(active.map { ($0.sum ?? 0).rounded() } == [60, 60])
            let basal = try await client.daily("basal_energy_burned", "2026-01-05", "2026-01-06")
            #expect(basal.map(\.day) == ["2026-01-06"])
            #expect(basal.map { ($0.sum ?? 0).rounded() } == [120])
        }
    }

    @Test(arguments: CollectorBackend.allCases) func discreteMetricsGetStatistics(_ backend: CollectorBackend)
        async throws
    {
        let readings = [(8, 60.0), (12, 90.0), (20, 75.0)].map { hour, bpm in
            WireFixtures.sample(
                "heart_rate", source: "Apple Watch", start: "2026-01-05T\(hour):00:00Z",
                end: "2026-01-05T\(hour):00:00Z", value: bpm)
        }
        try await harness.run(on: backend) { client in
            #expect(try await client.post(WireFixtures.batch("hr", readings)).status == .ok)
            let day = try #require(try await client.daily("heart_rate", "2026-01-05", "2026-01-05").first)
            #expect(day.avg == 75 && day.min == 60 && day.max == 90 && day.count == 3 && day.latest == 75)
            #expect(day.sum == nil)
        }
    }

    @Test(arguments: CollectorBackend.allCases) func aNightWithGenericAsleepAndStagesFromTwoSources(
        _ backend: CollectorBackend
    ) async throws {
        func sleep(_ source: String, _ stage: String, _ start: String, _ end: String) -> WireSample {
            WireFixtures.sample("sleep_analysis", source: source, start: start, end: end, category: stage)
        }
        let watch = [
            sleep("Apple Watch", "in_bed", "2026-01-05T22:00:00Z", "2026-01-06T06:00:00Z"),
            // Dropped: the watch also wrote stages for this night.
            sleep("Apple Watch", "asleep_unspecified", "2026-01-05T22:30:00Z", "2026-01-06T05:30:00Z"),
            sleep("Apple Watch", "asleep_core", "2026-01-05T22:30:00Z", "2026-01-06T00:30:00Z"),
            sleep("Apple Watch", "asleep_deep", "2026-01-06T00:30:00Z", "2026-01-06T01:30:00Z"),
            sleep("Apple Watch", "awake", "2026-01-06T01:30:00Z", "2026-01-06T01:45:00Z"),
            sleep("Apple Watch", "asleep_rem", "2026-01-06T01:45:00Z", "2026-01-06T03:00:00Z"),
            sleep("Apple Watch", "asleep_core", "2026-01-06T03:00:00Z", "2026-01-06T05:30:00Z"),
        ]
        // A second app's view of the same night: lower priority, so it must not add anything.
        let other = [
            sleep("AutoSleep", "in_bed", "2026-01-05T21:30:00Z", "2026-01-06T06:30:00Z"),
            sleep("AutoSleep", "asleep_unspecified", "2026-01-05T22:00:00Z", "2026-01-06T06:00:00Z"),
        ]
        try await harness.run(on: backend) { client in
            #expect(try await client.post(WireFixtures.batch("night", other + watch)).status == .ok)
            let nights = try await client.sleep("2026-01-05", "2026-01-07")
            #expect(nights.count == 1)
            let night = try #require(nights.first)
            #expect(night.night == "2026-01-06")
            #expect(night.source == "Apple Watch")
            // Asleep: 22:30–01:30 (3 h) + 01:45–05:30 (3 h 45) = 24,300 s.
            #expect(night.asleepSeconds == 24_300)
            #expect(night.coreSeconds == 16_200)  // 2 h + 2 h 30
            #expect(night.deepSeconds == 3_600)
            #expect(night.remSeconds == 4_500)
            #expect(night.awakeSeconds == 900)
            #expect(night.inBedSeconds == 28_800)  // 22:00–06:00
            #expect(night.start == "2026-01-05T22:00:00.000Z" && night.end == "2026-01-06T06:00:00.000Z")
        }
    }

    @Test(arguments: CollectorBackend.allCases) func queriesAreChecked(_ backend: CollectorBackend) async throws {
        try await harness.run(on: backend) { client in
            for uri in [
                "/v1/projections/daily?from=2026-01-01&to=2026-01-02",
                "/v1/projections/daily?metric=nope&from=2026-01-01&to=2026-01-02",
                "/v1/projections/daily?metric=step_count&from=2026-02-01&to=2026-01-02",
                "/v1/projections/daily?metric=step_count&from=2026-1-1&to=2026-01-02",
                "/v1/projections/sleep?from=2000-01-01&to=2026-01-02",
            ] {
                let response = try await client.get(uri)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.errorCode != nil)
            }
            #expect(try await client.get("/v1/nothing-here").status == .notFound)
            #expect(try await client.get("/v1/nothing-here").errorCode == "not_found")
        }
    }
}
