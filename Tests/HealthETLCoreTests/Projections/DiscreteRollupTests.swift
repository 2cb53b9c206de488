import Foundation
import HealthETLCore
import Testing

extension ProjectionTests {
    /// Discrete and coverage rollups: statistics over every source, time covered by a union.
    struct DiscreteRollupTests {
        typealias F = ProjectionFixtures

        /// Local offset +1 h. On local 2024-03-01:
        /// watch 60 (08:00–08:01Z), watch 90 (12:00Z, zero-length), phone 81 (19:59–20:01Z),
        /// watch 75 (20:00–20:01Z); the watch's 23:30Z sample (70) is 00:30 local on 03-02.
        /// average = (60 + 90 + 81 + 75) / 4 = 306 / 4 = 76.5; min 60; max 90; count 4.
        /// latest: 81 and 75 both end at 20:01; 75 started later → 75.
        /// coverage: 60 s + 0 + the union 19:59–20:01 = 120 s → 180 s.
        static let heartRates = [
            F.sample(
                "heart_rate", source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 08:01", value: 60,
                utcOffsetHours: 1),
            F.sample(
                "heart_rate", source: F.watch, from: "2024-03-01 12:00", to: "2024-03-01 12:00", value: 90,
                utcOffsetHours: 1),
            F.sample(
                "heart_rate", source: F.phone, from: "2024-03-01 19:59", to: "2024-03-01 20:01", value: 81,
                utcOffsetHours: 1),
            F.sample(
                "heart_rate", source: F.watch, from: "2024-03-01 20:00", to: "2024-03-01 20:01", value: 75,
                utcOffsetHours: 1),
            F.sample(
                "heart_rate", source: F.watch, from: "2024-03-01 23:30", to: "2024-03-01 23:31", value: 70,
                utcOffsetHours: 1),
        ]

        @Test func statisticsOverEverySourceWithLatest() throws {
            let result = DailyRollupCalculator(metric: F.heartRate).rollups(for: Self.heartRates)
            #expect(result.map(\.day) == [F.day(2024, 3, 1), F.day(2024, 3, 2)])
            let day = try #require(result.first)
            #expect(day.average == 76.5)
            #expect(day.minimum == 60)
            #expect(day.maximum == 90)
            #expect(day.count == 4)
            #expect(day.latest == 75)
            #expect(day.sum == nil)
            #expect(day.sources == [F.watch, F.phone])
            #expect(day.coverageSeconds == 180)
            #expect(result.last?.latest == 70)
        }

        /// Resting heart rate is written about once a day: `latest` is the figure to read; the
        /// morning's 58 is replaced by the evening's 55 (ends 21:00 > 07:00).
        @Test func latestAggregationReportsTheLastValue() throws {
            let rollup = try #require(
                DailyRollupCalculator(metric: F.restingHeartRate).rollups(for: [
                    F.sample(
                        "resting_heart_rate", source: F.watch, from: "2024-03-01 21:00",
                        to: "2024-03-01 21:00", value: 55),
                    F.sample(
                        "resting_heart_rate", source: F.watch, from: "2024-03-01 07:00",
                        to: "2024-03-01 07:00", value: 58),
                ]).first)
            #expect(rollup.latest == 55)
            #expect(rollup.average == 56.5)
            #expect(rollup.count == 2)
        }

        /// Sessions 08:00–08:20 and 08:10–08:30 overlap: the union is 08:00–08:30 = 1800 s. The
        /// 23:50–00:10 session adds 600 s to 03-01 and 600 s to 03-02, and counts on both days.
        @Test func intervalsReportTheTimeTheyCover() {
            let result = DailyRollupCalculator(metric: F.mindful).rollups(for: [
                F.sample(
                    "mindful_session", source: F.watch, from: "2024-03-01 08:00", to: "2024-03-01 08:20"),
                F.sample(
                    "mindful_session", source: F.phone, from: "2024-03-01 08:10", to: "2024-03-01 08:30"),
                F.sample(
                    "mindful_session", source: F.phone, from: "2024-03-01 23:50", to: "2024-03-02 00:10"),
            ])
            #expect(result.map(\.day) == [F.day(2024, 3, 1), F.day(2024, 3, 2)])
            #expect(result.map(\.coverageSeconds) == [2400, 600])
            #expect(result.map(\.count) == [3, 1])
            #expect(result.allSatisfy { $0.sum == nil && $0.average == nil })
        }

        @Test func panelMetricsHaveNoRollupOfTheirOwn() {
            let bloodPressure = MetricDefinition(
                id: "blood_pressure", name: "Blood pressure", kind: .correlation, aggregation: .panel)
            let sample = F.sample(
                "blood_pressure", source: F.phone, from: "2024-03-01 08:00", to: "2024-03-01 08:00")
            #expect(DailyRollupCalculator(metric: bloodPressure).rollups(for: [sample]).isEmpty)
        }
    }
}
