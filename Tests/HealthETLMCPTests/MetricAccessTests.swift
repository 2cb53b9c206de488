import HealthETLCore
import MCP
import Testing

@testable import HealthETLMCP

/// Names resolve through the catalog; a wrong one gets the closest names; the allow-list holds.
struct MetricAccessTests {
    let catalog = try! MetricCatalog.bundled()

    @Test func aMistypedNameGetsTheClosestNames() throws {
        let access = try MetricAccess(catalog: catalog)
        #expect(try access.resolve("step_count").id == "step_count")
        #expect(try access.resolve("HKQuantityTypeIdentifierHeartRate").id == "heart_rate")
        let error = try #require(throws: ToolError.self) { try access.resolve("stepcount") }
        #expect(error.description.contains("the closest are step_count"))
        #expect(access.closest(to: "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz").isEmpty)
    }

    @Test func theAllowListHidesEveryOtherMetricAndWorkoutsUnlessNamed() throws {
        let access = try MetricAccess(catalog: catalog, allowed: ["steps", "heart_rate"])
        #expect(access.permits("step_count") && access.permits("heart_rate"))
        #expect(!access.permits("body_mass") && !access.permitsWorkouts)
        let error = try #require(throws: ToolError.self) { try access.resolve("body_mass") }
        #expect(!error.description.contains("body_mass;") && error.description.contains("exposed here"))
        #expect(Set(access.closest(to: "body_mass")).isSubset(of: ["step_count", "heart_rate"]))
        #expect(try MetricAccess(catalog: catalog, allowed: ["workouts"]).permitsWorkouts)
        #expect(throws: ToolError.self) { try MetricAccess(catalog: catalog, allowed: ["no_such_metric"]) }
    }

    @Test(arguments: [("", "abc", 3), ("kitten", "sitting", 3), ("flaw", "lawn", 2), ("same", "same", 0)])
    func editDistance(a: String, b: String, distance: Int) {
        #expect(MetricAccess.editDistance(Array(a.utf8), Array(b.utf8)) == distance)
    }

    @Test func rangesAreBoundedAndDatesChecked() throws {
        let today = CivilDate(year: 2026, month: 11, day: 29)!
        let defaults = try ToolArguments([:]).days(defaultLast: today, defaultSpan: 7, maximumDays: 30)
        #expect(defaults == CivilDate(year: 2026, month: 11, day: 23)!...today)
        let long = ToolArguments(["from": "2020-01-01", "to": "2026-11-29"])
        let error = try #require(throws: ToolError.self) {
            try long.days(defaultLast: today, defaultSpan: 7, maximumDays: 30)
        }
        #expect(error.description.contains("at most 30"))
        #expect(throws: ToolError.self) {
            try ToolArguments(["from": "2026-11-30", "to": "2026-11-29"]).days(
                defaultLast: today, defaultSpan: 7, maximumDays: 30)
        }
        #expect(throws: ToolError.self) {
            try ToolArguments(["to": 20_261_129]).days(defaultLast: today, defaultSpan: 7, maximumDays: 30)
        }
        #expect(try ToolArguments(["limit": 10.0]).integer("limit", in: 1...5000) == 10)
        #expect(throws: ToolError.self) { try ToolArguments(["limit": 10.5]).integer("limit", in: 1...5000) }
        #expect(throws: ToolError.self) { try ToolArguments(["limit": 6000]).integer("limit", in: 1...5000) }
    }
}
