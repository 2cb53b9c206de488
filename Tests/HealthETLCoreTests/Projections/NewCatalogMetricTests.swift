import HealthETLCore
import HealthETLTestSupport
import Testing

private typealias F = ProjectionFixtures

extension ProjectionTests {
    /// Metrics the whole catalog added are rolled up by their kind like the old ones: a nutrient
    /// is summed by source priority, a measurement gets its statistics.
    struct NewCatalogMetricTests {
        func definition(_ id: String) throws -> MetricDefinition {
            try #require(try MetricCatalog.bundled().metric(named: id)?.definition)
        }

        /// A food log app 12:00–13:00 (40 g of protein) and a manual entry 12:30–12:45 (30 g):
        /// the manual entry outranks the app over its quarter hour, the app keeps the other three
        /// quarters: 30 + 40 × 45/60 = 60 g.
        @Test func aNutrientIsSummedBySourcePriority() throws {
            let protein = try definition("HKQuantityTypeIdentifierDietaryProtein")
            #expect(protein.kind == .cumulative && protein.aggregation == .sum)
            let rollup = try #require(
                DailyRollupCalculator(metric: protein).rollups(for: [
                    F.sample(
                        "dietary_protein", source: "MyFitnessPal", from: "2024-03-01 12:00", to: "2024-03-01 13:00",
                        value: 40),
                    F.sample(
                        "dietary_protein", source: "Health", from: "2024-03-01 12:30", to: "2024-03-01 12:45",
                        value: 30, userEntered: true),
                ]).first)
            #expect(rollup.sum == 60)
            #expect(rollup.sources == ["Health", "MyFitnessPal"])
        }

        /// Blood alcohol 0.02 % and 0.06 % from two sources: statistics over both.
        @Test func aNewMeasurementGetsItsStatistics() throws {
            let alcohol = try definition("HKQuantityTypeIdentifierBloodAlcoholContent")
            #expect(alcohol.kind == .discrete)
            let rollup = try #require(
                DailyRollupCalculator(metric: alcohol).rollups(for: [
                    F.sample(
                        "blood_alcohol_content", source: "BACtrack", from: "2024-03-01 21:00", to: "2024-03-01 21:00",
                        value: 0.02),
                    F.sample(
                        "blood_alcohol_content", source: "Health", from: "2024-03-01 23:00", to: "2024-03-01 23:00",
                        value: 0.06),
                ]).first)
            #expect(abs((rollup.average ?? 0) - 0.04) < 1e-12)
            #expect(rollup.minimum == 0.02 && rollup.maximum == 0.06)
            #expect(rollup.latest == 0.06)
            #expect(rollup.count == 2)
        }
    }
}
