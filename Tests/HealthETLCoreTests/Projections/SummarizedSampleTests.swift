import HealthETLCore
import Testing

extension ProjectionTests {
    /// A source's summary of a period (Health Auto Export's summarized points) never adds to raw
    /// samples: where raw samples cover a slice they win, and the summary counts only where none do.
    struct SummarizedSampleTests {
        typealias F = ProjectionFixtures

        static func summary(_ value: Double, from start: String, to end: String, source: String = "Watch|iPhone")
            -> Sample
        {
            var sample = F.sample(source: source, from: start, to: end, value: value)
            sample.flags.insert(.summarized)
            return sample
        }

        @Test func rawSamplesWinWhereTheyCoverAndTheSummaryFillsTheRest() {
            // An hourly summary of 600 steps, 08:00–09:00, and the phone's own samples for the
            // first half hour (200 steps): the summary counts only for the half hour they leave.
            let samples = [
                Self.summary(600, from: "2024-03-01 08:00", to: "2024-03-01 09:00"),
                F.sample(source: F.phone, from: "2024-03-01 08:00", to: "2024-03-01 08:15", value: 120),
                F.sample(source: F.phone, from: "2024-03-01 08:15", to: "2024-03-01 08:30", value: 80),
            ]
            let rollups = DailyRollupCalculator(metric: F.steps).rollups(for: samples)
            #expect(rollups.count == 1)
            #expect(rollups.first?.sum == 500.0)
        }

        @Test func aSummaryCoveredWholeAddsNothing() {
            let samples = [
                Self.summary(7_000, from: "2024-03-01 00:00", to: "2024-03-02 00:00"),
                F.sample(source: F.watch, from: "2024-03-01 00:00", to: "2024-03-02 00:00", value: 6_500),
            ]
            let rollups = DailyRollupCalculator(metric: F.steps).rollups(for: samples)
            #expect(rollups.first?.sum == 6_500.0)
        }

        @Test func aSummaryAloneCountsWhole() {
            let rollups = DailyRollupCalculator(metric: F.steps).rollups(
                for: [Self.summary(7_000, from: "2024-03-01 00:00", to: "2024-03-02 00:00")])
            #expect(rollups.first?.sum == 7_000.0)
        }

        @Test func aSummaryRanksBelowEveryTierAndEveryPreferredName() {
            let priority = SourcePriority(preferred: ["Watch|iPhone"])
            let summary = priority.rank(of: Self.summary(1, from: "2024-03-01 08:00", to: "2024-03-01 09:00"))
            let other = priority.rank(of: F.sample(source: F.ring, from: "2024-03-01 08:00", to: "2024-03-01 09:00"))
            #expect(summary.sourceClass == .summary)
            #expect(other < summary)
        }

        @Test func aJoinedSourceNameRanksAsItsBestPreferredPart() {
            let priority = SourcePriority(preferred: ["Oura", "Apple Watch"])
            let joined = priority.rank(
                of: F.sample(source: "iPhone|Apple Watch", from: "2024-03-01 08:00", to: "2024-03-01 09:00"))
            #expect(joined.preferredPosition == 1)
        }

        @Test func theFlagIsNoReasonForReview() {
            var flags: SampleFlags = [.summarized]
            #expect(!flags.needsReview)
            #expect(flags.names == ["summarized"])
            flags.insert(.futureDated)
            #expect(flags.needsReview)
        }
    }
}
