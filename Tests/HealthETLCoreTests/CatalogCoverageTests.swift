import Foundation
import HealthETLTestSupport
import Testing

@testable import HealthETLCore

/// The catalog against every type each source format can write (`metrics --coverage`).
struct CatalogCoverageTests {
    @Test func theBundledCatalogMapsEveryTypeOfEverySourceFormat() throws {
        let coverage = CatalogCoverage(catalog: try MetricCatalog.bundled(), lists: try SourceTypeList.bundled())
        #expect(coverage.formats.map(\.id).contains("healthkit"))
        for format in coverage.formats {
            #expect(format.unmapped.isEmpty, "\(format.title): \(format.unmapped)")
            #expect(format.mapped == format.total && format.total > 0, "\(format.title)")
        }
        let healthKit = try #require(coverage.formats.first { $0.id == "healthkit" })
        #expect(healthKit.total == 192)
        #expect(try #require(coverage.formats.first { $0.id == "health_connect" }).total == 42)
    }

    @Test func theHealthKitListHoldsApplesQuantityAndCategoryTypes() throws {
        let list = try #require(try SourceTypeList.bundled().first { $0.id == "healthkit" })
        #expect(list.names.filter { $0.hasPrefix("HKQuantityTypeIdentifier") }.count == 120)
        #expect(list.names.filter { $0.hasPrefix("HKCategoryTypeIdentifier") }.count == 72)
        #expect(Set(list.names).count == list.names.count)
    }

    @Test func aTypeTheCatalogDropsIsReportedUnmapped() throws {
        var document = try MetricCatalog.bundled().document
        document.metrics.removeAll { $0.id == "uv_exposure" }
        let catalog = try MetricCatalog(document: document, file: "test")
        let coverage = CatalogCoverage(catalog: catalog, lists: try SourceTypeList.bundled())
        let healthKit = try #require(coverage.formats.first { $0.id == "healthkit" })
        #expect(healthKit.unmapped == ["HKQuantityTypeIdentifierUVExposure"])
        #expect(healthKit.mapped == 191)
    }

    /// A HealthKit quantity type is a quantity metric, a category type a category or session:
    /// the kind the identifier promises is the kind the record gets checked as.
    @Test func everyHealthKitTypeMapsToAMetricOfItsKind() throws {
        let catalog = try MetricCatalog.bundled()
        for name in try #require(try SourceTypeList.bundled().first { $0.id == "healthkit" }).names {
            let metric = try #require(catalog.metric(named: name)?.definition, "\(name)")
            if name.hasPrefix("HKQuantityTypeIdentifier") {
                #expect(metric.kind.isQuantity, "\(name) → \(metric.id) is \(metric.kind)")
            } else {
                #expect([.category, .interval].contains(metric.kind), "\(name) → \(metric.id) is \(metric.kind)")
            }
        }
    }

    /// Health Connect mappings name record types of the platform's list: a typo would map nothing.
    @Test func everyHealthConnectMappingNamesAListedRecordType() throws {
        let catalog = try MetricCatalog.bundled()
        let records = Set(try #require(try SourceTypeList.bundled().first { $0.id == "health_connect" }).names)
        for metric in catalog.metrics {
            for field in metric.healthConnect {
                #expect(records.contains(field.record), "\(metric.id): \(field.record)")
                #expect(field.table != nil, "\(metric.id): \(field.record) names no table")
            }
        }
    }

    @Test func workoutActivityTypesHaveCanonicalValues() throws {
        let catalog = try MetricCatalog.bundled()
        let workout = try #require(catalog.metric(named: "HKWorkoutTypeIdentifier"))
        let activities = try #require(workout.definition.category.flatMap { catalog.document.categories[$0] })
        #expect(activities.values["HKWorkoutActivityTypeRunning"] == "running")
        #expect(activities.values["HKWorkoutActivityTypeTraditionalStrengthTraining"] != nil)
        // Health Connect's platform exercise types land on the same values.
        let exercise = try #require(workout.definition.healthConnect.first { $0.record == "ExerciseSessionRecord" })
        #expect(exercise.values.values.allSatisfy { activities.canonicalValues.contains($0) })
        #expect(exercise.values.count >= 60)
    }
}

/// The bundled source lists against the shared reference documents they were taken from.
@Suite(.enabled(if: SharedDocs.isAvailable, Comment(rawValue: SharedDocs.missingReason)))
struct SharedDocsTests {
    @Test func theHealthKitListIsTheReferenceList() throws {
        let reference = try SharedDocs.lines("healthkit-identifiers.txt")
        let bundled = try #require(try SourceTypeList.bundled().first { $0.id == "healthkit" })
        #expect(Set(bundled.names) == Set(reference))
        #expect(bundled.names.count == reference.count)
    }

    @Test func theHealthConnectListIsTheReferenceList() throws {
        let reference = try SharedDocs.lines("health-connect-record-types.txt")
        let tables = Dictionary(
            uniqueKeysWithValues: reference.map { line in
                let parts = line.split(separator: "\t").map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            })
        let bundled = try #require(try SourceTypeList.bundled().first { $0.id == "health_connect" })
        #expect(Set(bundled.names) == Set(tables.keys))
        // Each record's mappings name its own table or a child table of it (a series, the deltas):
        // one whose name starts with the record's words (`SpeedRecordTable` → `speed_record_table`,
        // `skin_temperature_record_table` → `skin_temperature_delta_table`). Sleep stages are the
        // one child named otherwise.
        func words(_ name: String) -> String {
            name.lowercased().replacingOccurrences(of: "_", with: "").replacingOccurrences(of: "recordtable", with: "")
                .replacingOccurrences(of: "table", with: "")
        }
        let catalog = try MetricCatalog.bundled()
        for metric in catalog.metrics {
            for field in metric.healthConnect {
                let own = try #require(tables[field.record], "\(field.record)")
                let table = try #require(field.table, "\(metric.id)")
                #expect(
                    table == own || words(table).hasPrefix(words(own))
                        || (field.record == "SleepSessionRecord" && table == "sleep_stages_table"),
                    "\(metric.id): \(field.record) → \(table), its table is \(own)")
            }
        }
    }
}
