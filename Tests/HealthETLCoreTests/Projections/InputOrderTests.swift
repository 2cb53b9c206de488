import Foundation
import HealthETLCore
import Testing

extension ProjectionTests {
    /// The projections depend on the set of samples, never on their order: every shuffle gives the
    /// identical result, floating-point sums included.
    struct InputOrderTests {
        typealias F = ProjectionFixtures

        /// Fixtures mixing priorities, ties, midnight splits and zero-length samples.
        static let steps =
            CumulativeRollupTests.watchAndPhone + [
                F.sample(source: F.watch, from: "2024-03-01 08:05", to: "2024-03-01 08:15", value: 333),
                F.sample(source: F.ring, from: "2024-03-01 07:55", to: "2024-03-01 09:05", value: 777),
                F.sample(source: F.phone, from: "2024-03-01 08:30", to: "2024-03-01 08:30", value: 13),
                F.sample(source: "B’s iPhone", from: "2024-03-01 09:00", to: "2024-03-01 09:07", value: 71),
                F.sample(source: F.phone, from: "2024-03-01 23:00", to: "2024-03-02 02:00", value: 901),
            ]

        @Test(arguments: 1...20 as ClosedRange<UInt64>)
        func cumulativeRollupsIgnoreInputOrder(seed: UInt64) {
            let calculator = DailyRollupCalculator(metric: F.steps)
            #expect(
                calculator.rollups(for: F.shuffled(Self.steps, seed: seed))
                    == calculator.rollups(for: Self.steps))
        }

        @Test(arguments: 1...20 as ClosedRange<UInt64>)
        func discreteRollupsIgnoreInputOrder(seed: UInt64) {
            let calculator = DailyRollupCalculator(metric: F.heartRate)
            let samples = DiscreteRollupTests.heartRates
            #expect(
                calculator.rollups(for: F.shuffled(samples, seed: seed)) == calculator.rollups(for: samples))
        }

        @Test(arguments: 1...20 as ClosedRange<UInt64>)
        func sleepNightsIgnoreInputOrder(seed: UInt64) {
            let calculator = SleepNightCalculator()
            let samples = SleepNightCalculatorTests.stagedNight + SleepNightCalculatorTests.threeSources
            #expect(
                calculator.nights(for: F.shuffled(samples, seed: seed)) == calculator.nights(for: samples))
        }
    }
}
