import Foundation
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import Testing

@testable import HealthConnect

/// The catalog's Health Connect mappings against Android's own storage: the table, column and
/// stored unit each helper class of AOSP's `packages/modules/HealthFitness`
/// (`service/java/com/android/server/healthconnect/storage/datatypehelpers/`) writes, as read
/// there (Docs/health-connect-research/mapping.md cites each one), and against the schema the
/// synthetic generator builds (version 14, plus schema 16's activity intensity table).
struct HealthConnectCatalogSchemaTests {
    let directory = TemporaryDirectory("healthetl-hc-catalog")

    /// One value column as Android stores it.
    struct AndroidColumn: Hashable, CustomStringConvertible {
        let table: String
        /// `nil` for a record whose presence is the sample (no value column).
        let column: String?
        /// The catalog's unit for the stored value; `nil` for an enum number.
        let unit: String?

        var description: String { "\(table).\(column ?? "-") [\(unit ?? "enum")]" }
    }

    static let nutrientsInGrams = [
        "biotin", "caffeine", "calcium", "total_carbohydrate", "chloride", "cholesterol", "chromium", "copper",
        "monounsaturated_fat", "polyunsaturated_fat", "saturated_fat", "total_fat", "dietary_fiber", "folate",
        "iodine", "iron", "magnesium", "manganese", "molybdenum", "niacin", "pantothenic_acid", "phosphorus",
        "potassium", "protein", "riboflavin", "selenium", "sodium", "sugar", "thiamin", "vitamin_a", "vitamin_b12",
        "vitamin_b6", "vitamin_c", "vitamin_d", "vitamin_e", "vitamin_k", "zinc", "trans_fat", "unsaturated_fat",
        "folic_acid",
    ]

    /// Table → (the helper class that defines it, its value columns with their stored units).
    static let android: [String: (helper: String, columns: [String?: String?])] = [
        "heart_rate_record_series_table": ("HeartRateRecordHelper", ["beats_per_minute": "bpm"]),
        "resting_heart_rate_record_table": ("RestingHeartRateRecordHelper", ["beats_per_minute": "bpm"]),
        "heart_rate_variability_rmssd_record_table": (
            "HeartRateVariabilityRmssdHelper", ["heart_rate_variability_millis": "ms"]
        ),
        "respiratory_rate_record_table": ("RespiratoryRateRecordHelper", ["rate": "/min"]),
        "oxygen_saturation_record_table": ("OxygenSaturationRecordHelper", ["percentage": "pct"]),
        "body_temperature_record_table": ("BodyTemperatureRecordHelper", ["temperature": "Cel"]),
        "basal_body_temperature_record_table": ("BasalBodyTemperatureRecordHelper", ["temperature": "Cel"]),
        "blood_pressure_record_table": ("BloodPressureRecordHelper", ["systolic": "mmHg", "diastolic": "mmHg"]),
        "blood_glucose_record_table": ("BloodGlucoseRecordHelper", ["level": "mmol/L"]),
        "vo2_max_record_table": ("Vo2MaxRecordHelper", ["vo2_milliliters_per_minute_kilogram": "mL/min/kg"]),
        "weight_record_table": ("WeightRecordHelper", ["weight": "g"]),
        "height_record_table": ("HeightRecordHelper", ["height": "m"]),
        "body_fat_record_table": ("BodyFatRecordHelper", ["percentage": "pct"]),
        "lean_body_mass_record_table": ("LeanBodyMassRecordHelper", ["mass": "g"]),
        "bone_mass_record_table": ("BoneMassRecordHelper", ["mass": "g"]),
        "body_water_mass_record_table": ("BodyWaterMassRecordHelper", ["body_water_mass": "g"]),
        "basal_metabolic_rate_record_table": ("BasalMetabolicRateRecordHelper", ["basal_metabolic_rate": "W"]),
        "steps_record_table": ("StepsRecordHelper", ["count": "count"]),
        "distance_record_table": ("DistanceRecordHelper", ["distance": "m"]),
        "active_calories_burned_record_table": ("ActiveCaloriesBurnedRecordHelper", ["energy": "cal"]),
        "total_calories_burned_record_table": ("TotalCaloriesBurnedRecordHelper", ["energy": "cal"]),
        "floors_climbed_record_table": ("FloorsClimbedRecordHelper", ["floors": "count"]),
        "elevation_gained_record_table": ("ElevationGainedRecordHelper", ["elevation": "m"]),
        "wheelchair_pushes_record_table": ("WheelchairPushesRecordHelper", ["count": "count"]),
        "nutrition_record_table": (
            "NutritionRecordHelper",
            Dictionary(uniqueKeysWithValues: nutrientsInGrams.map { ($0, "g") })
                .merging(["energy": "cal", "energy_from_fat": "cal"]) { $1 }
        ),
        "hydration_record_table": ("HydrationRecordHelper", ["volume": "L"]),
        "speed_record_table": ("SpeedRecordHelper", ["speed": "m/s"]),
        "power_record_table": ("PowerRecordHelper", ["power": "W"]),
        "cycling_pedaling_cadence_record_table": (
            "CyclingPedalingCadenceRecordHelper", ["revolutions_per_minute": "/min"]
        ),
        "steps_cadence_record_table": ("StepsCadenceRecordHelper", ["rate": "/min"]),
        "skin_temperature_record_table": ("SkinTemperatureRecordHelper", ["baseline": "Cel"]),
        "skin_temperature_delta_table": ("SkinTemperatureRecordHelper", ["delta": "Cel"]),
        "sleep_stages_table": ("SleepStageRecordHelper", ["stage_type": nil]),
        "mindfulness_session_record_table": ("MindfulnessSessionRecordHelper", ["type": nil]),
        "exercise_session_record_table": ("ExerciseSessionRecordHelper", ["exercise_type": nil]),
        "planned_exercise_session_record_table": ("PlannedExerciseSessionRecordHelper", ["exercise_type": nil]),
        "activity_intensity_record_table": ("ActivityIntensityRecordHelper", ["type": nil]),
        "menstruation_period_record_table": ("MenstruationPeriodRecordHelper", [nil: nil]),
        "cervical_mucus_record_table": ("CervicalMucusRecordHelper", ["sensation": nil, "appearance": nil]),
        "menstruation_flow_record_table": ("MenstruationFlowRecordHelper", ["flow": nil]),
        "intermenstrual_bleeding_record_table": ("IntermenstrualBleedingRecordHelper", [nil: nil]),
        "ovulation_test_record_table": ("OvulationTestRecordHelper", ["result": nil]),
        "sexual_activity_record_table": ("SexualActivityRecordHelper", ["protection_used": nil]),
    ]

    static var androidColumns: Set<AndroidColumn> {
        Set(
            android.flatMap { table, entry in
                entry.columns.map { AndroidColumn(table: table, column: $0.key, unit: $0.value) }
            })
    }

    /// Every mapping names the table, column and stored unit Android's helper writes, and every
    /// value column a helper writes is mapped.
    @Test func everyMappingIsTheColumnAndUnitAndroidStores() throws {
        var mapped: Set<AndroidColumn> = []
        for metric in try MetricCatalog.bundled().metrics {
            for field in metric.healthConnect {
                guard let table = field.table else { continue }
                mapped.insert(
                    AndroidColumn(table: table, column: field.field, unit: field.values.isEmpty ? field.unit : nil))
            }
        }
        let android = Self.androidColumns
        #expect(
            mapped.subtracting(android).isEmpty,
            "not as Android stores it: \(mapped.subtracting(android).sorted { "\($0)" < "\($1)" })")
        #expect(
            android.subtracting(mapped).isEmpty,
            "not mapped: \(android.subtracting(mapped).sorted { "\($0)" < "\($1)" })")
    }

    /// The generator's schema (version 14 and schema 16's activity intensity table) has every
    /// column Android writes and the catalog maps, under Android's names, none of them generated.
    @Test func everyMappedColumnExistsInTheGeneratorsSchema() throws {
        let path = directory.child("v16.db")
        try HealthConnectSchemaFile.create(at: path, then: HealthConnectFixture.activityIntensityTable)
        let schema = try HealthConnectDatabase(path: path).schema()
        let map = HealthConnectTableMap(catalog: try MetricCatalog.bundled())
        for (table, columns) in map.tables {
            let exists = schema.hasTable(table)
            #expect(exists, "\(table)")
            for column in columns {
                // A mapping without a column (a bleeding event) is the row itself.
                guard let name = column.field.field else { continue }
                let column = schema.tables[table]?.first { $0.name == name }
                #expect(column != nil, "\(table).\(name)")
                #expect(column?.isGenerated != true, "\(table).\(name)")
            }
        }
        for column in Self.androidColumns {
            guard let name = column.column else { continue }
            let exists = schema.hasColumn(name, in: column.table)
            #expect(exists, "\(column)")
        }
    }
}
