import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLStore
import HealthETLTestSupport
import Testing

@testable import HealthConnect

/// The phone's app priority, imported with the export, decides the local daily totals as the
/// phone does: in each slice of time only the best app present counts, a record contributing
/// its value times the share of its span in slices it won. Cases computed by hand.
@Suite struct HealthConnectPriorityTests {
    let fixture = HealthConnectFixture()

    /// App 1 (Samsung Health): 400 steps 10:00–10:30 UTC; app 2 (nameless): 600 steps 10:00–11:00
    /// UTC, on 2024-12-01 (UTC+1).
    static let steps = """
        INSERT INTO steps_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset, count)
          VALUES (randomblob(16), 1, 1733047200000, 3600, 1733049000000, 3600, 400),
                 (randomblob(16), 2, 1733047200000, 3600, 1733050800000, 3600, 600);
        """

    func dailySteps(priority order: String) throws -> Double? {
        let (database, _) = try fixture.database(
            Self.steps
                + "INSERT INTO health_data_category_priority_table (health_data_category, app_id_priority_order) "
                + "VALUES (1, '\(order)');")
        let store = try Store(directory: StoreDirectory(path: fixture.directory.child("store")))
        _ = try ArchiveImport().run(database.path, into: store, catalog: try MetricCatalog.bundled())
        let projections = LocalProjections(
            catalog: try MetricCatalog.bundled(), priority: SourcePriority(),
            sourcesByMetric: try store.sourcePriorities())
        let day = try #require(CivilDate(year: 2024, month: 12, day: 1))
        return try projections.compute(store, metrics: ["step_count"], days: day...day).days.first?.sum
    }

    @Test func theFirstAppWinsItsHalfHourAndTheSecondKeepsTheRestOfItsHour() throws {
        // 400 + 600 × 30/60.
        #expect(try dailySteps(priority: "1,2") == 700)
    }

    @Test func theReverseOrderKeepsOnlyTheSecondAppsHour() throws {
        // App 2 wins the whole hour: app 1's half hour lies inside it.
        #expect(try dailySteps(priority: "2,1") == 600)
    }

    @Test func theOrderIsStoredByMetricWithTheAppsNames() throws {
        let (database, _) = try fixture.database(
            "INSERT INTO health_data_category_priority_table (health_data_category, app_id_priority_order) "
                + "VALUES (1, '2, 1'), (5, '1');")
        let store = try Store(directory: StoreDirectory(path: fixture.directory.child("store")))
        _ = try ArchiveImport().run(database.path, into: store, catalog: try MetricCatalog.bundled())
        let priorities = try store.sourcePriorities()
        #expect(priorities["step_count"] == ["com.example.nameless", "Samsung Health"])
        #expect(priorities["sleep_analysis"] == ["Samsung Health"])
        #expect(priorities["body_mass"] == nil)
    }
}
