import Foundation
import HealthETLTestSupport
import Testing

@testable import HealthETLCore

/// The catalog's Health Connect and Health Auto Export mappings: what they name, and the rules
/// that make a mapping that cannot be followed a catalog error.
struct SourceMappingTests {
    static let rateSet =
        #""unit_sets": {"rate": {"canonical": "/min", "units": {"/min": 1, "count/min": 1}}}"#
    static let stageSet = #""categories": {"stage": {"values": {"HKSleepDeep": "deep", "HKSleepAwake": "awake"}}}"#

    func catalog(_ metrics: String, sets: String = rateSet) throws -> MetricCatalog {
        try MetricCatalog(json: Data("{\"format\": 1, \(sets), \"metrics\": [\(metrics)]}".utf8), file: "extra.json")
    }

    func loadError(_ metrics: String, sets: String = rateSet, sourceLocation: SourceLocation = #_sourceLocation)
        -> CatalogError?
    {
        do {
            _ = try catalog(metrics, sets: sets)
            Issue.record("the catalog was accepted", sourceLocation: sourceLocation)
            return nil
        } catch let error as CatalogError {
            return error
        } catch {
            Issue.record("not a CatalogError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    static let heartRate = """
        {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics",
         "healthkit": ["HKQuantityTypeIdentifierHeartRate"], "unit": "/min", "unit_set": "rate",
         "health_connect": [{"record": "HeartRateRecord", "table": "heart_rate_record_series_table",
                             "field": "beats_per_minute", "unit": "count/min"}],
         "hae": [{"name": "heart_rate", "units": ["count/min"]}, {"name": "pulse", "units": ["/min"]}]}
        """

    @Test func everyMappingNamesTheMetric() throws {
        let catalog = try catalog(Self.heartRate)
        for name in [
            "HKQuantityTypeIdentifierHeartRate", "HeartRateRecord.beats_per_minute", "HeartRateRecord", "pulse",
        ] {
            #expect(catalog.metric(named: name)?.id == "heart_rate", "\(name)")
        }
        let definition = try #require(catalog.metric(named: "heart_rate")?.definition)
        #expect(definition.healthConnect.first?.table == "heart_rate_record_series_table")
        #expect(definition.healthAutoExport.map(\.name) == ["heart_rate", "pulse"])
        #expect(definition.ucumUnit == "/min")
    }

    @Test func aRecordHoldingSeveralMetricsIsNamedOnlyWithItsField() throws {
        let metric = { (id: String, field: String) in
            """
            {"id": "\(id)", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate",
             "health_connect": [{"record": "PanelRecord", "field": "\(field)", "unit": "/min"}]}
            """
        }
        let catalog = try catalog(metric("upper", "a") + "," + metric("lower", "b"))
        #expect(catalog.metric(named: "PanelRecord.a")?.id == "upper")
        #expect(catalog.metric(named: "PanelRecord.b")?.id == "lower")
        #expect(catalog.metric(named: "PanelRecord") == nil)
    }

    @Test func theOlderSingleStringFormsStillLoad() throws {
        let catalog = try catalog(
            """
            {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate",
             "healthkit": "HKQuantityTypeIdentifierHeartRate", "health_connect": "HeartRate", "aliases": ["pulse"]}
            """)
        let definition = try #require(catalog.metric(named: "HeartRate")?.definition)
        #expect(definition.healthKit == ["HKQuantityTypeIdentifierHeartRate"])
        #expect(definition.healthConnect == [HealthConnectField(record: "HeartRate")])
        // Written back in the list form, it reads the same.
        let written = try JSONEncoder().encode(definition)
        #expect(try JSONDecoder().decode(MetricDefinition.self, from: written) == definition)
    }

    @Test func aStoredUnitOutsideTheUnitSetIsRefused() throws {
        let error = try #require(
            loadError(
                """
                {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate",
                 "health_connect": [{"record": "HeartRateRecord", "field": "beats_per_minute", "unit": "Hz"}]}
                """))
        #expect(error.location == "metrics[0] (heart_rate).health_connect[0].unit")
        #expect(error.problem.contains("Hz is not a spelling of rate"))
        let missing = try #require(
            loadError(
                """
                {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate",
                 "health_connect": [{"record": "HeartRateRecord", "field": "beats_per_minute"}]}
                """))
        #expect(missing.problem.contains("needs the unit it is stored in"))
    }

    @Test func aHealthAutoExportUnitOutsideTheUnitSetIsRefused() throws {
        let error = try #require(
            loadError(
                """
                {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate",
                 "hae": [{"name": "heart_rate", "units": ["count/min", "beats"]}]}
                """))
        #expect(error.location == "metrics[0] (heart_rate).hae[0].units")
        #expect(error.problem.contains("beats"))
    }

    @Test func storedEnumNumbersMustMeanValuesOfTheSet() throws {
        let sleep = { (values: String) in
            """
            {"id": "sleep", "kind": "category", "aggregation": "duration", "category": "stage",
             "health_connect": [{"record": "SleepSessionRecord", "table": "sleep_stages_table", "field": "stage_type",
                                 "values": \(values)}]}
            """
        }
        let sets = Self.rateSet + ", " + Self.stageSet
        let catalog = try catalog(sleep(#"{"1": "awake", "5": "deep"}"#), sets: sets)
        #expect(catalog.metric(named: "SleepSessionRecord.stage_type")?.id == "sleep")
        let error = try #require(loadError(sleep(#"{"1": "awake", "6": "rem"}"#), sets: sets))
        #expect(error.location == "metrics[0] (sleep).health_connect[0].values.6")
        #expect(error.problem.contains("rem is not a value of the category set stage"))
    }

    @Test func onlySessionsAndCategoriesNameACategorySet() throws {
        let sets = Self.rateSet + ", " + Self.stageSet
        _ = try catalog(
            #"{"id": "workout", "kind": "interval", "aggregation": "duration", "category": "stage"}"#, sets: sets)
        let discrete = try #require(
            loadError(
                """
                {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate",
                 "category": "stage"}
                """, sets: sets))
        #expect(discrete.location == "metrics[0] (heart_rate).category")
        let unknown = try #require(
            loadError(#"{"id": "workout", "kind": "interval", "aggregation": "duration", "category": "nope"}"#))
        #expect(unknown.problem.contains("no category set is named nope"))
    }

    @Test func aNameTwoSourcesShareIsRefused() throws {
        let error = try #require(
            loadError(
                Self.heartRate + ","
                    + """
                    {"id": "resting_heart_rate", "kind": "discrete", "aggregation": "latest", "unit": "/min",
                     "unit_set": "rate", "hae": [{"name": "pulse"}]}
                    """))
        #expect(error.location == "metrics[1] (resting_heart_rate)")
        #expect(error.problem.contains("\"pulse\" already names metric heart_rate"))
    }
}
