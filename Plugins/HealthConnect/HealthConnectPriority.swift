import HealthETLCore

/// The phone's own app order per data category (`health_data_category_priority_table`), turned
/// into an order of source names per catalog metric: what Health Connect's own daily totals use.
struct HealthConnectPriority {
    static let table = "health_data_category_priority_table"

    /// Health Connect's data categories (`HealthDataCategory`) by record type.
    static let categories: [String: Int] = {
        let byCategory: [Int: [String]] = [
            1: [
                "ActiveCaloriesBurnedRecord", "ActivityIntensityRecord", "CyclingPedalingCadenceRecord",
                "DistanceRecord", "ElevationGainedRecord", "ExerciseSessionRecord", "FloorsClimbedRecord",
                "PlannedExerciseSessionRecord", "PowerRecord", "SpeedRecord", "StepsCadenceRecord", "StepsRecord",
                "TotalCaloriesBurnedRecord", "Vo2MaxRecord", "WheelchairPushesRecord",
            ],
            2: [
                "BasalMetabolicRateRecord", "BodyFatRecord", "BodyWaterMassRecord", "BoneMassRecord", "HeightRecord",
                "LeanBodyMassRecord", "WeightRecord",
            ],
            3: [
                "CervicalMucusRecord", "IntermenstrualBleedingRecord", "MenstruationFlowRecord",
                "MenstruationPeriodRecord", "OvulationTestRecord", "SexualActivityRecord",
            ],
            4: ["HydrationRecord", "NutritionRecord"],
            5: ["SleepSessionRecord"],
            6: [
                "BasalBodyTemperatureRecord", "BloodGlucoseRecord", "BloodPressureRecord", "BodyTemperatureRecord",
                "HeartRateRecord", "HeartRateVariabilityRmssdRecord", "OxygenSaturationRecord", "RespiratoryRateRecord",
                "RestingHeartRateRecord", "SkinTemperatureRecord",
            ],
            7: ["MindfulnessSessionRecord"],
        ]
        var categories: [String: Int] = [:]
        for (category, records) in byCategory {
            for record in records { categories[record] = category }
        }
        return categories
    }()

    /// Metric id → source names, best first, for every metric of a category the phone ranks.
    let sourcesByMetric: [String: [String]]

    init(
        database: HealthConnectDatabase, schema: HealthConnectSchema, provenance: HealthConnectProvenance,
        catalog: MetricCatalog
    ) throws {
        guard schema.hasColumn("health_data_category", in: Self.table),
            schema.hasColumn("app_id_priority_order", in: Self.table)
        else {
            sourcesByMetric = [:]
            return
        }
        var byCategory: [Int: [String]] = [:]
        let rows = try database.connection.prepare(
            "SELECT health_data_category, app_id_priority_order FROM \(Self.table) ORDER BY health_data_category")
        while try rows.step() {
            let apps = (rows.text(1) ?? "").split(separator: ",").compactMap {
                Int64(String($0).filter { $0 != " " })
            }
            var names: [String] = []
            for app in apps {
                let name = provenance.sourceName(app: app)
                if !names.contains(name) { names.append(name) }
            }
            if !names.isEmpty { byCategory[Int(rows.int64(0))] = names }
        }
        var sourcesByMetric: [String: [String]] = [:]
        for metric in catalog.metrics {
            for field in metric.healthConnect {
                guard let category = Self.categories[field.record], let names = byCategory[category] else { continue }
                sourcesByMetric[metric.id] = names
            }
        }
        self.sourcesByMetric = sourcesByMetric
    }
}
