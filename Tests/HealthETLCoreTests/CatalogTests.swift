import Foundation
import HealthETLTestSupport
import Testing

@testable import HealthETLCore

struct CatalogTests {
    // MARK: - The bundled catalog

    @Test func bundledCatalogLoads() throws {
        let catalog = try MetricCatalog.bundled()
        #expect(catalog.metrics.count >= 45)
        #expect(catalog.document.format == CatalogDocument.currentFormat)
        var ids = Set<String>()
        for metric in catalog.metrics {
            #expect(MetricKind.allCases.contains(metric.kind), "\(metric.id)")
            #expect(Aggregation.allowed(for: metric.kind).contains(metric.aggregation), "\(metric.id)")
            #expect(metric.tier == 1 || metric.tier == 2, "\(metric.id)")
            #expect(metric.id.isSnakeCase, "\(metric.id)")
            #expect(ids.insert(metric.id).inserted, "\(metric.id) twice")
        }
        // every kind is represented
        #expect(Set(catalog.metrics.map(\.kind)) == Set(MetricKind.allCases))
    }

    @Test func everyQuantityMetricHasACanonicalUnit() throws {
        let catalog = try MetricCatalog.bundled()
        for metric in catalog.metrics where metric.kind.isQuantity {
            guard let unit = metric.unit, let setName = metric.unitSet else {
                Issue.record("\(metric.id) has no unit or unit_set")
                continue
            }
            let set = try #require(catalog.document.unitSets[setName], "\(metric.id): no unit set \(setName)")
            #expect(set.canonical == unit, "\(metric.id): \(unit) vs \(set.canonical)")
            // some spelling writes the canonical value as it is
            #expect(set.units.values.contains(.identity), "\(setName) has no spelling at scale 1")
            let resolved = try #require(catalog.metric(named: metric.id))
            #expect(resolved.conversions == set.units, "\(metric.id)")
        }
        for metric in catalog.metrics where !metric.kind.isQuantity {
            #expect(
                metric.unit == nil && metric.unitSet == nil, "\(metric.id) is not a quantity but has a unit")
        }
    }

    @Test(arguments: [
        ("heart_rate", "heart_rate"),
        ("HKQuantityTypeIdentifierHeartRate", "heart_rate"),  // HealthKit
        ("HeartRateRecord", "heart_rate"),  // Health Connect
        ("HKQuantityTypeIdentifierStepCount", "step_count"),
        ("StepsRecord", "step_count"),
        ("NutritionRecord.protein", "dietary_protein"),  // one column of a record of many
        ("protein", "dietary_protein"),  // Health Auto Export
        ("steps", "step_count"),  // alias
        ("WeightRecord", "body_mass"),
        ("weight", "body_mass"),
        ("HKCategoryTypeIdentifierSleepAnalysis", "sleep_analysis"),
        ("SleepSessionRecord", "sleep_analysis"),
        ("sleep", "sleep_analysis"),
        ("HKCorrelationTypeIdentifierBloodPressure", "blood_pressure"),
        ("HKWorkoutTypeIdentifier", "workout"),
    ])
    func bundledLookup(name: String, id: String) throws {
        let catalog = try MetricCatalog.bundled()
        #expect(catalog.metric(named: name)?.id == id)
    }

    @Test func bundledLookupMisses() throws {
        let catalog = try MetricCatalog.bundled()
        for name in ["", "Heart_Rate", "heartrate", "HKQuantityTypeIdentifierHeartRat", "heart_rate "] {
            #expect(catalog.metric(named: name) == nil, "\(name)")
        }
    }

    @Test func everyIdentifierResolvesToItsMetric() throws {
        let catalog = try MetricCatalog.bundled()
        for metric in catalog.metrics {
            for identifier in metric.identifiers {
                #expect(catalog.metric(named: identifier)?.id == metric.id, "\(identifier)")
            }
        }
    }

    @Test func resolvedCategoryValuesIncludeTheCanonicalOnes() throws {
        let sleep = try #require(try MetricCatalog.bundled().metric(named: "sleep"))
        #expect(sleep.categoryValues["HKCategoryValueSleepAnalysisAsleepREM"] == "asleep_rem")
        for canonical in Set(sleep.categoryValues.values) {
            #expect(sleep.categoryValues[canonical] == canonical)
        }
        #expect(sleep.conversions.isEmpty)
    }

    @Test func reportedUnits() throws {
        let catalog = try MetricCatalog.bundled()
        func unit(_ id: String) throws -> String? {
            catalog.reportedUnit(of: try #require(catalog.metric(named: id)).definition)
        }
        #expect(try unit("step_count") == "{steps}")
        #expect(try unit("heart_rate") == "/min")
        #expect(try unit("sleep_analysis") == "s")
        #expect(try unit("high_heart_rate_event") == "{events}")
        #expect(try unit("blood_pressure") == "mm[Hg]")
    }

    // MARK: - Merging an overlay

    static let base = """
        {"format": 1,
         "unit_sets": {"rate": {"canonical": "/min", "units": {"/min": 1, "count/min": 1}},
                       "mass": {"canonical": "kg", "units": {"kg": 1, "lb": 0.45359237}}},
         "categories": {"sleep_stage": {"values": {"HKCategoryValueSleepAnalysisAwake": "awake"}}},
         "metrics": [
           {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics",
            "healthkit": "HKQuantityTypeIdentifierHeartRate", "health_connect": "HeartRate",
            "unit": "/min", "unit_set": "rate", "hard": {"min": 0, "max": 400}, "plausible": {"min": 25, "max": 250}},
           {"id": "body_mass", "kind": "discrete", "aggregation": "latest", "unit": "kg", "unit_set": "mass"},
           {"id": "sleep_analysis", "kind": "category", "aggregation": "duration", "category": "sleep_stage"}
         ]}
        """

    func base() throws -> MetricCatalog {
        try MetricCatalog(json: Data(Self.base.utf8), file: "base.json")
    }

    func overlay(_ json: String) throws -> CatalogDocument {
        try MetricCatalog.decode(Data(json.utf8), file: "extra.json")
    }

    func mergeError(_ json: String, into catalog: MetricCatalog? = nil) throws -> CatalogError? {
        let target = try catalog ?? base()
        do {
            _ = try target.merging(try overlay(json), file: "extra.json")
            Issue.record("the overlay was accepted")
            return nil
        } catch let error as CatalogError {
            #expect(error.file == "extra.json")
            return error
        }
    }

    @Test func overlayAddsAMetric() throws {
        let merged = try base().merging(
            try overlay(
                """
                {"format": 1, "metrics": [{"id": "caffeine", "kind": "discrete", "aggregation": "latest",
                  "aliases": ["dietary_caffeine"], "unit": "kg", "unit_set": "mass"}]}
                """), file: "extra.json")
        #expect(merged.metrics.map(\.id) == ["heart_rate", "body_mass", "sleep_analysis", "caffeine"])
        #expect(merged.metric(named: "dietary_caffeine")?.id == "caffeine")
        #expect(merged.metric(named: "HeartRate")?.id == "heart_rate")
    }

    @Test func overlayReplacesAMetricWhole() throws {
        let merged = try base().merging(
            try overlay(
                """
                {"format": 1, "metrics": [{"id": "heart_rate", "name": "Pulse", "kind": "discrete",
                  "aggregation": "latest", "healthkit": "HKQuantityTypeIdentifierHeartRate",
                  "unit": "/min", "unit_set": "rate", "plausible": {"min": 30, "max": 200}, "tier": 1}]}
                """), file: "extra.json")
        let heart = try #require(merged.metric(named: "HKQuantityTypeIdentifierHeartRate"))
        #expect(heart.definition.name == "Pulse")
        #expect(heart.definition.aggregation == .latest)
        #expect(heart.definition.plausible == ValueRange(min: 30, max: 200))
        #expect(heart.definition.tier == 1)
        // replaced whole: what the overlay leaves out is gone, not inherited
        #expect(heart.definition.hard == nil)
        #expect(heart.definition.healthConnect.isEmpty)
        #expect(merged.metric(named: "HeartRate") == nil)
        // still one heart_rate, in its original place
        #expect(merged.metrics.map(\.id) == ["heart_rate", "body_mass", "sleep_analysis"])
    }

    @Test func overlayAddsAUnitSpellingToAnExistingSet() throws {
        let merged = try base().merging(
            try overlay(
                """
                {"format": 1, "unit_sets": {"rate": {"canonical": "/min", "units": {"beats/s": 60}}}}
                """), file: "extra.json")
        let rate = try #require(merged.document.unitSets["rate"])
        #expect(rate.canonical == "/min")
        #expect(Set(rate.units.keys) == ["/min", "count/min", "beats/s"])
        let heart = try #require(merged.metric(named: "heart_rate"))
        #expect(heart.conversions["beats/s"] == UnitConversion(scale: 60))
        // and the normalizer uses it: 1.2 beats/s × 60 = 72 /min
        let normalizer = Normalizer(catalog: merged, now: RecordFixtures.now)
        guard
            case .accepted(let sample) = normalizer.normalize(
                RecordFixtures.record(value: "1.2", unit: "beats/s"))
        else {
            Issue.record("1.2 beats/s was not accepted")
            return
        }
        #expect(abs(try #require(sample.value) - 72) <= 72e-9)
    }

    @Test func overlayAddsCategorySpellings() throws {
        let merged = try base().merging(
            try overlay(
                """
                {"format": 1, "categories": {"sleep_stage": {"values": {"Awake (Garmin)": "awake"}}}}
                """), file: "extra.json")
        let sleep = try #require(merged.metric(named: "sleep_analysis"))
        #expect(sleep.categoryValues["Awake (Garmin)"] == "awake")
        #expect(sleep.categoryValues["HKCategoryValueSleepAnalysisAwake"] == "awake")
    }

    @Test func overlayCannotChangeACanonicalUnit() throws {
        let error = try #require(
            try mergeError(
                """
                {"format": 1, "unit_sets": {"rate": {"canonical": "/s", "units": {"/s": 1}}}}
                """))
        #expect(error.location == "unit_sets.rate.canonical")
        #expect(error.problem.contains("/min") && error.problem.contains("/s"))
        #expect(error.description.hasPrefix("extra.json: unit_sets.rate.canonical: "))
    }

    @Test func overlayOfAnotherFormatIsRefused() throws {
        let error = try #require(try mergeError(#"{"format": 2}"#))
        #expect(error.location == "format")
        #expect(error.problem.contains("2"))
    }

    @Test func overlayBreakingARuleIsRefused() throws {
        // claims the HealthKit identifier of the bundled heart_rate
        let error = try #require(
            try mergeError(
                """
                {"format": 1, "metrics": [{"id": "pulse", "kind": "discrete", "aggregation": "latest",
                  "healthkit": "HKQuantityTypeIdentifierHeartRate", "unit": "/min", "unit_set": "rate"}]}
                """))
        #expect(error.location == "metrics[3] (pulse)")
        #expect(error.problem.contains("HKQuantityTypeIdentifierHeartRate"))
        #expect(error.problem.contains("heart_rate"))
    }

    @Test func overlayOnTheBundledCatalog() throws {
        let bundled = try MetricCatalog.bundled()
        let merged = try bundled.merging(
            try overlay(
                """
                {"format": 1,
                 "unit_sets": {"rate": {"canonical": "/min", "units": {"beats/s": 60}}},
                 "metrics": [
                   {"id": "caffeine_level", "kind": "discrete", "aggregation": "latest", "unit": "kg", "unit_set": "mass"},
                   {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics",
                    "healthkit": "HKQuantityTypeIdentifierHeartRate", "unit": "/min", "unit_set": "rate"}]}
                """), file: "extra.json")
        #expect(merged.metrics.count == bundled.metrics.count + 1)
        #expect(merged.metrics.last?.id == "caffeine_level")
        #expect(merged.metric(named: "heart_rate")?.conversions["beats/s"] == UnitConversion(scale: 60))
        #expect(
            merged.metric(named: "resting_heart_rate")?.conversions["beats/s"] == UnitConversion(scale: 60))
        #expect(merged.metric(named: "heart_rate")?.definition.plausible == nil)
        let error = try #require(
            try mergeError(
                #"{"format": 1, "unit_sets": {"energy": {"canonical": "kJ", "units": {"kJ": 1}}}}"#,
                into: bundled))
        #expect(error.location == "unit_sets.energy.canonical")
    }

    // MARK: - Broken catalog files

    /// A valid metric entry to build broken documents from.
    static let heartRate = """
        {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics",
         "healthkit": "HKQuantityTypeIdentifierHeartRate", "unit": "/min", "unit_set": "rate"}
        """
    static let rateSet =
        #""unit_sets": {"rate": {"canonical": "/min", "units": {"/min": 1, "count/min": 1}}}"#

    func loadError(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> CatalogError? {
        do {
            _ = try MetricCatalog(json: Data(json.utf8), file: "extra.json")
            Issue.record("the catalog was accepted", sourceLocation: sourceLocation)
            return nil
        } catch let error as CatalogError {
            #expect(error.file == "extra.json", sourceLocation: sourceLocation)
            #expect(error.description.contains("extra.json"), sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("not a CatalogError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test func theTestBaseIsValid() throws {
        _ = try MetricCatalog(
            json: Data("{\"format\": 1, \(Self.rateSet), \"metrics\": [\(Self.heartRate)]}".utf8),
            file: "ok.json")
        _ = try base()
    }

    @Test(arguments: [#"{"format": 1, "metrics": ["#, "", "not json", #"{"format": 1 "metrics": []}"#])
    func invalidJSON(_ json: String) throws {
        let error = try #require(loadError(json))
        #expect(error.location == "")
        #expect(error.problem.contains("not valid JSON"))
        #expect(error.description.hasPrefix("extra.json: is not valid JSON"))
    }

    @Test func missingRequiredKey() throws {
        let kind = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [{"id": "x", "aggregation": "statistics"}]}
                """))
        #expect(kind.location == "metrics[0].kind")
        #expect(kind.problem == "is required but missing")
        #expect(kind.description.hasPrefix("extra.json: metrics[0].kind: is required but missing"))
        let later = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [\(Self.heartRate), {"kind": "discrete", "aggregation": "latest"}]}
                """))
        #expect(later.location == "metrics[1].id")
        let format = try #require(loadError(#"{"metrics": []}"#))
        #expect(format.location == "format")
        let canonical = try #require(
            loadError(#"{"format": 1, "unit_sets": {"rate": {"units": {"/min": 1}}}}"#))
        #expect(canonical.location == "unit_sets.rate.canonical")
    }

    @Test func badEnumValue() throws {
        let kind = try #require(
            loadError(
                """
                {"format": 1, "metrics": [{"id": "x", "kind": "sideways", "aggregation": "latest"}]}
                """))
        #expect(kind.location == "metrics[0].kind")
        #expect(kind.problem.contains("sideways"))
        let aggregation = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [\(Self.heartRate), {"id": "x", "kind": "interval", "aggregation": "median"}]}
                """))
        #expect(aggregation.location == "metrics[1].aggregation")
        #expect(aggregation.problem.contains("median"))
    }

    @Test func wrongTypes() throws {
        let tier = try #require(
            loadError(
                """
                {"format": 1, "metrics": [{"id": "x", "kind": "interval", "aggregation": "count", "tier": "two"}]}
                """))
        #expect(tier.location == "metrics[0].tier")
        let scale = try #require(
            loadError(
                #"{"format": 1, "unit_sets": {"rate": {"canonical": "/min", "units": {"/min": 1, "bpm": "one"}}}}"#
            ))
        #expect(scale.location == "unit_sets.rate.units.bpm")
    }

    @Test func duplicateID() throws {
        let error = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [
                  {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate"},
                  {"id": "heart_rate", "kind": "discrete", "aggregation": "latest", "unit": "/min", "unit_set": "rate"}]}
                """))
        #expect(error.location == "metrics[1] (heart_rate)")
        #expect(error.problem.contains("twice"))
    }

    @Test func identifierClaimedTwice() throws {
        let healthKit = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [\(Self.heartRate),
                  {"id": "pulse", "kind": "discrete", "aggregation": "latest",
                   "healthkit": "HKQuantityTypeIdentifierHeartRate", "unit": "/min", "unit_set": "rate"}]}
                """))
        #expect(healthKit.location == "metrics[1] (pulse)")
        #expect(healthKit.problem.contains("\"HKQuantityTypeIdentifierHeartRate\""))
        #expect(healthKit.problem.contains("heart_rate"))
        // an alias that is another metric's id
        let alias = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [\(Self.heartRate),
                  {"id": "pulse", "kind": "discrete", "aggregation": "latest", "aliases": ["heart_rate"],
                   "unit": "/min", "unit_set": "rate"}]}
                """))
        #expect(alias.location == "metrics[1] (pulse)")
        #expect(alias.problem.contains("\"heart_rate\""))
    }

    @Test func unitSetMissing() throws {
        let unknown = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [
                  {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "beats"}]}
                """))
        #expect(unknown.location == "metrics[0] (heart_rate).unit_set")
        #expect(unknown.problem.contains("beats"))
        let absent = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [
                  {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min"}]}
                """))
        #expect(absent.location == "metrics[0] (heart_rate)")
        #expect(absent.problem.contains("unit_set"))
    }

    @Test func canonicalUnitMismatch() throws {
        let error = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [
                  {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "count/min", "unit_set": "rate"}]}
                """))
        #expect(error.location == "metrics[0] (heart_rate).unit")
        #expect(error.problem.contains("count/min") && error.problem.contains("/min"))
    }

    @Test(arguments: [
        ("discrete", "sum", "latest, statistics"),
        ("cumulative", "statistics", "sum"),
        ("cumulative", "latest", "sum"),
        ("category", "sum", "count, duration"),
        ("interval", "panel", "count, duration"),
        ("correlation", "count", "panel"),
    ])
    func aggregationNotAllowedForKind(kind: String, aggregation: String, allowed: String) throws {
        let extra: String
        switch kind {
        case "discrete", "cumulative": extra = #", "unit": "/min", "unit_set": "rate""#
        case "category": extra = #", "category": "stage""#
        case "correlation": extra = #", "components": ["heart_rate"]"#
        default: extra = ""
        }
        let error = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "categories": {"stage": {"values": {"a": "a"}}}, "metrics": [\(Self.heartRate),
                  {"id": "probe", "kind": "\(kind)", "aggregation": "\(aggregation)"\(extra)}]}
                """))
        #expect(error.location == "metrics[1] (probe).aggregation")
        #expect(error.problem.contains("use one of \(allowed)"))
    }

    @Test func minGreaterThanMax() throws {
        let hard = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [
                  {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate",
                   "hard": {"min": 400, "max": 0}}]}
                """))
        #expect(hard.location == "metrics[0] (heart_rate).hard")
        #expect(hard.problem.contains("min is greater than max"))
        let plausible = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [
                  {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate",
                   "hard": {"min": 0, "max": 400}, "plausible": {"min": 250.5, "max": 250}}]}
                """))
        #expect(plausible.location == "metrics[0] (heart_rate).plausible")
        // equal bounds are a valid (if narrow) range
        _ = try MetricCatalog(
            json: Data(
                """
                {"format": 1, \(Self.rateSet), "metrics": [
                  {"id": "heart_rate", "kind": "discrete", "aggregation": "statistics", "unit": "/min", "unit_set": "rate",
                   "plausible": {"min": 60, "max": 60}}]}
                """.utf8), file: "ok.json")
    }

    @Test(arguments: [3, 0, -1])
    func tierOutOfRange(_ tier: Int) throws {
        let error = try #require(
            loadError(
                """
                {"format": 1, "metrics": [{"id": "workout", "kind": "interval", "aggregation": "duration", "tier": \(tier)}]}
                """))
        #expect(error.location == "metrics[0] (workout).tier")
    }

    @Test func componentThatDoesNotExist() throws {
        let error = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [
                  {"id": "blood_pressure", "kind": "correlation", "aggregation": "panel",
                   "components": ["heart_rate", "blood_pressure_mean"]},
                  \(Self.heartRate)]}
                """))
        // components may name metrics defined later; only the missing one is reported
        #expect(error.location == "metrics[0] (blood_pressure).components")
        #expect(error.problem.contains("blood_pressure_mean"))
        let none = try #require(
            loadError(
                """
                {"format": 1, "metrics": [{"id": "blood_pressure", "kind": "correlation", "aggregation": "panel"}]}
                """))
        #expect(none.location == "metrics[0] (blood_pressure).components")
    }

    @Test(arguments: [2, 0])
    func unsupportedFormat(_ format: Int) throws {
        let error = try #require(loadError("{\"format\": \(format), \"metrics\": []}"))
        #expect(error.location == "format")
        #expect(error.problem.contains("format \(format) is not supported"))
    }

    @Test func otherRules() throws {
        let snake = try #require(
            loadError(
                #"{"format": 1, "metrics": [{"id": "HeartRate", "kind": "interval", "aggregation": "count"}]}"#
            ))
        #expect(snake.location == "metrics[0] (HeartRate)")
        #expect(snake.problem.contains("snake_case"))
        let zeroScale = try #require(
            loadError(
                #"{"format": 1, "unit_sets": {"rate": {"canonical": "/min", "units": {"/min": 1, "bpm": 0}}}}"#
            ))
        #expect(zeroScale.location == "unit_sets.rate.units.bpm")
        let category = try #require(
            loadError(
                #"{"format": 1, "metrics": [{"id": "sleep", "kind": "category", "aggregation": "duration", "category": "nope"}]}"#
            ))
        #expect(category.location == "metrics[0] (sleep).category")
        let unitOnInterval = try #require(
            loadError(
                """
                {"format": 1, \(Self.rateSet), "metrics": [{"id": "workout", "kind": "interval", "aggregation": "duration", "unit": "/min", "unit_set": "rate"}]}
                """))
        #expect(unitOnInterval.location == "metrics[0] (workout)")
    }

    @Test func errorDescriptionSaysWhatToDo() {
        let error = CatalogError(
            file: "extra.json", location: "metrics[0].kind", problem: "is required but missing")
        #expect(
            error.description
                == "extra.json: metrics[0].kind: is required but missing. Fix the catalog file, or leave out --catalog to use only the bundled metrics."
        )
        let whole = CatalogError(file: "extra.json", location: "", problem: "is not valid JSON")
        #expect(whole.description.hasPrefix("extra.json: is not valid JSON. "))
    }
}
