import HealthETLStore
import HealthETLTestSupport
import Testing

/// `healthetl import` on the public real exports in `../shared/real-exports`: run when they are
/// there (as in CI), skipped as one group otherwise. `ImportCommandTests` runs the same checks on
/// `ExportQuirksFixture`, which holds each quirk these files have.
@Suite(.enabled(if: RealExports.isAvailable, Comment(rawValue: RealExports.missingReason)))
struct RealExportTests {
    let harness = ImportHarness()

    static let expectations = [
        ImportHarness.Expected(
            path: "curated-v14/export.xml", records: 26, correlations: 1, components: 2, workouts: 2,
            summaries: 3),
        ImportHarness.Expected(
            path: "excerpts-v11/export.xml", records: 5, correlations: 0, components: 0, workouts: 1,
            summaries: 17),
        ImportHarness.Expected(
            path: "ios16-broken-dtd/export.zip", records: 1, correlations: 0, components: 0, workouts: 1,
            summaries: 10),
        ImportHarness.Expected(
            path: "inline-route/export.zip", records: 2, correlations: 0, components: 0, workouts: 1,
            summaries: 2),
        ImportHarness.Expected(
            path: "inline-route/export-flat.xml", records: 2, correlations: 0, components: 0, workouts: 1,
            summaries: 2),
    ]

    @Test(arguments: expectations)
    func realExportImportsEveryRecord(_ expected: ImportHarness.Expected) throws {
        try harness.expectImportsEveryRecord(RealExports.path(expected.path), expected)
    }

    @Test func hrvBeatsAndRoutesAreKept() throws {
        let store = harness.directory.child("store")
        _ = try harness.importJSON(RealExports.path("curated-v14/export.xml"), store: store)
        _ = try harness.importJSON(RealExports.path("ios16-broken-dtd/export.zip"), store: store)
        let rows = try Store(directory: StoreDirectory(path: store)).contentRows()
        // Beat lists are stored with the HRV sample, as [ms, bpm] pairs.
        #expect(
            rows.contains {
                $0.hasPrefix("0|") && $0.contains("heart_rate_variability_sdnn") && $0.hasSuffix("]]")
            })
        // The iOS 16 walk's GPX route: 6:… points in workout_route_points (table 6).
        #expect(rows.filter { $0.hasPrefix("6|") }.count > 100)
        // Workout statistics (table 5) from WorkoutStatistics elements.
        #expect(rows.contains { $0.hasPrefix("5|") })
    }

    @Test func humanSummaryShowsOutcomes() throws {
        try harness.expectHumanSummaryShowsOutcomes(RealExports.path("curated-v14/export.xml"))
    }
}
