/// The fixed strings of the export, kept as UTF-8 bytes ready to copy.

/// One top-level Record type, in the order Apple's exporter groups them.
enum HealthType: Int, CaseIterable {
    case bodyMass, heartRate, oxygenSaturation, bloodPressureSystolic, bloodPressureDiastolic
    case respiratoryRate, stepCount, distanceWalkingRunning, basalEnergyBurned
    case activeEnergyBurned, flightsClimbed, appleExerciseTime, restingHeartRate
    case walkingHeartRateAverage, environmentalAudioExposure, heartRateVariabilitySDNN
    case sleepAnalysis, appleStandHour, mindfulSession

    var identifier: String {
        switch self {
        case .bodyMass: "HKQuantityTypeIdentifierBodyMass"
        case .heartRate: "HKQuantityTypeIdentifierHeartRate"
        case .oxygenSaturation: "HKQuantityTypeIdentifierOxygenSaturation"
        case .bloodPressureSystolic: "HKQuantityTypeIdentifierBloodPressureSystolic"
        case .bloodPressureDiastolic: "HKQuantityTypeIdentifierBloodPressureDiastolic"
        case .respiratoryRate: "HKQuantityTypeIdentifierRespiratoryRate"
        case .stepCount: "HKQuantityTypeIdentifierStepCount"
        case .distanceWalkingRunning: "HKQuantityTypeIdentifierDistanceWalkingRunning"
        case .basalEnergyBurned: "HKQuantityTypeIdentifierBasalEnergyBurned"
        case .activeEnergyBurned: "HKQuantityTypeIdentifierActiveEnergyBurned"
        case .flightsClimbed: "HKQuantityTypeIdentifierFlightsClimbed"
        case .appleExerciseTime: "HKQuantityTypeIdentifierAppleExerciseTime"
        case .restingHeartRate: "HKQuantityTypeIdentifierRestingHeartRate"
        case .walkingHeartRateAverage: "HKQuantityTypeIdentifierWalkingHeartRateAverage"
        case .environmentalAudioExposure: "HKQuantityTypeIdentifierEnvironmentalAudioExposure"
        case .heartRateVariabilitySDNN: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
        case .sleepAnalysis: "HKCategoryTypeIdentifierSleepAnalysis"
        case .appleStandHour: "HKCategoryTypeIdentifierAppleStandHour"
        case .mindfulSession: "HKCategoryTypeIdentifierMindfulSession"
        }
    }

    /// Correlation members are never trimmed away: their Correlation must stay complete.
    var isCorrelationMember: Bool {
        self == .bloodPressureSystolic || self == .bloodPressureDiastolic
    }
}

enum ExportUnit: UInt8 {
    case none, countPerMinute, count, kilometre, mile, kilocalorie, kilojoule, percent, pound
    case millimetreOfMercury, minute, millisecond, decibelSPL

    var text: String {
        switch self {
        case .none: ""
        case .countPerMinute: "count/min"
        case .count: "count"
        case .kilometre: "km"
        case .mile: "mi"
        case .kilocalorie: "kcal"
        case .kilojoule: "kJ"
        case .percent: "%"
        case .pound: "lb"
        case .millimetreOfMercury: "mmHg"
        case .minute: "min"
        case .millisecond: "ms"
        case .decibelSPL: "dBASPL"
        }
    }
}

/// Category values, written as the record's `value`.
enum CategoryValue: Int64, CaseIterable {
    case inBed, asleepCore, asleepDeep, asleepREM, awake, asleepUnspecified
    case standHourStood, standHourIdle, notApplicable

    var text: String {
        switch self {
        case .inBed: "HKCategoryValueSleepAnalysisInBed"
        case .asleepCore: "HKCategoryValueSleepAnalysisAsleepCore"
        case .asleepDeep: "HKCategoryValueSleepAnalysisAsleepDeep"
        case .asleepREM: "HKCategoryValueSleepAnalysisAsleepREM"
        case .awake: "HKCategoryValueSleepAnalysisAwake"
        case .asleepUnspecified: "HKCategoryValueSleepAnalysisAsleepUnspecified"
        case .standHourStood: "HKCategoryValueAppleStandHourStood"
        case .standHourIdle: "HKCategoryValueAppleStandHourIdle"
        case .notApplicable: "HKCategoryValueNotApplicable"
        }
    }
}

enum Source: UInt8, CaseIterable {
    case watch, phone, autoSleep, healthMate, health

    /// Personal names use U+2019, as iOS writes them.
    var name: String {
        switch self {
        case .watch: "Simon\u{2019}s Apple Watch"
        case .phone: "Simon\u{2019}s iPhone"
        case .autoSleep: "AutoSleep"
        case .healthMate: "Health Mate"
        case .health: "Health"
        }
    }
}

extension Source {
    /// What the source reported as its version during an era.
    func version(in era: SoftwareEra) -> String {
        switch self {
        case .watch: era.watchOS
        case .phone, .health: era.iOS
        case .autoSleep: "6.9.1"
        case .healthMate: "6.11.1"
        }
    }

    /// The device description without the per-export object address (`nil`: no device).
    func device(in era: SoftwareEra) -> String? {
        switch self {
        case .watch:
            "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:\(era.watchHardware), software:\(era.watchOS)"
        case .phone:
            "name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:\(era.phoneHardware), software:\(era.iOS)"
        default: nil
        }
    }
}

/// What the user's devices ran when: versions and hardware change over an export's years.
struct SoftwareEra {
    let fromDay: Int
    let watchOS: String
    let iOS: String
    let watchHardware: String
    let phoneHardware: String
}

enum Vocabulary {
    static let eras: [SoftwareEra] = [
        era("1970-01-01", "7.6.2", "14.8", "Watch6,2", "iPhone13,2"),
        era("2021-10-04", "8.0.1", "15.0.2", "Watch6,2", "iPhone13,2"),
        era("2022-03-21", "8.5", "15.4", "Watch6,2", "iPhone13,2"),
        era("2022-09-26", "9.0.2", "16.0.3", "Watch6,2", "iPhone14,2"),
        era("2023-05-22", "9.5.1", "16.5", "Watch6,2", "iPhone14,2"),
        era("2023-10-02", "10.0.2", "17.0.3", "Watch6,2", "iPhone15,2"),
        era("2024-02-05", "10.3", "17.3.1", "Watch6,2", "iPhone15,2"),
        era("2024-06-03", "10.5", "17.5.1", "Watch6,2", "iPhone15,2"),
        era("2024-09-23", "11.0.1", "18.0.1", "Watch6,2", "iPhone15,2"),
        era("2024-11-04", "11.1", "18.1", "Watch6,2", "iPhone15,2"),
    ]

    private static func era(
        _ from: String, _ watchOS: String, _ iOS: String, _ watch: String, _ phone: String
    ) -> SoftwareEra {
        SoftwareEra(
            fromDay: CivilTime.parseDay(from) ?? 0, watchOS: watchOS, iOS: iOS,
            watchHardware: watch, phoneHardware: phone)
    }

    static func eraIndex(day: Int) -> Int {
        var index = 0
        for (i, era) in eras.enumerated() where era.fromDay <= day { index = i }
        return index
    }

    static let exportDate = "2024-12-02 07:41:27 -0800"
    static let timeZone = "America/Los_Angeles"

    static let me =
        " <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1987-04-19\""
        + " HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexMale\""
        + " HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeAPositive\""
        + " HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\""
        + " HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n"

    /// The internal DTD subset, in the shape of Apple's v14 one (declares no entities).
    static let prolog = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Me EMPTY>
        <!ATTLIST Me
          HKCharacteristicTypeIdentifierDateOfBirth                 CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBiologicalSex               CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBloodType                   CDATA #REQUIRED
          HKCharacteristicTypeIdentifierFitzpatrickSkinType         CDATA #REQUIRED
          HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
        <!ELEMENT Correlation ((MetadataEntry|Record)*)>
        <!ATTLIST Correlation
          type          CDATA #REQUIRED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
        <!ATTLIST Workout
          workoutActivityType   CDATA #REQUIRED
          duration              CDATA #IMPLIED
          durationUnit          CDATA #IMPLIED
          totalDistance         CDATA #IMPLIED
          totalDistanceUnit     CDATA #IMPLIED
          totalEnergyBurned     CDATA #IMPLIED
          totalEnergyBurnedUnit CDATA #IMPLIED
          sourceName            CDATA #REQUIRED
          sourceVersion         CDATA #IMPLIED
          device                CDATA #IMPLIED
          creationDate          CDATA #IMPLIED
          startDate             CDATA #REQUIRED
          endDate               CDATA #REQUIRED
        >
        <!ELEMENT WorkoutActivity ((MetadataEntry|WorkoutEvent|WorkoutStatistics)*)>
        <!ATTLIST WorkoutActivity
          uuid         CDATA #REQUIRED
          startDate    CDATA #REQUIRED
          endDate      CDATA #IMPLIED
          duration     CDATA #IMPLIED
          durationUnit CDATA #IMPLIED
        >
        <!ELEMENT WorkoutEvent ((MetadataEntry)*)>
        <!ATTLIST WorkoutEvent
          type         CDATA #REQUIRED
          date         CDATA #REQUIRED
          duration     CDATA #IMPLIED
          durationUnit CDATA #IMPLIED
        >
        <!ELEMENT WorkoutStatistics EMPTY>
        <!ATTLIST WorkoutStatistics
          type      CDATA #REQUIRED
          startDate CDATA #REQUIRED
          endDate   CDATA #REQUIRED
          average   CDATA #IMPLIED
          minimum   CDATA #IMPLIED
          maximum   CDATA #IMPLIED
          sum       CDATA #IMPLIED
          unit      CDATA #IMPLIED
        >
        <!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
        <!ATTLIST WorkoutRoute
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT FileReference EMPTY>
        <!ATTLIST FileReference
          path CDATA #REQUIRED
        >
        <!ELEMENT ActivitySummary EMPTY>
        <!ATTLIST ActivitySummary
          dateComponents         CDATA #IMPLIED
          activeEnergyBurned     CDATA #IMPLIED
          activeEnergyBurnedGoal CDATA #IMPLIED
          activeEnergyBurnedUnit CDATA #IMPLIED
          appleMoveTime          CDATA #IMPLIED
          appleMoveTimeGoal      CDATA #IMPLIED
          appleExerciseTime      CDATA #IMPLIED
          appleExerciseTimeGoal  CDATA #IMPLIED
          appleStandHours        CDATA #IMPLIED
          appleStandHoursGoal    CDATA #IMPLIED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        <!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of instantaneous beats-per-minute readings. -->
        <!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
        <!ELEMENT InstantaneousBeatsPerMinute EMPTY>
        <!ATTLIST InstantaneousBeatsPerMinute
          bpm  CDATA #REQUIRED
          time CDATA #REQUIRED
        >
        <!ELEMENT ClinicalRecord EMPTY>
        <!ATTLIST ClinicalRecord
          type             CDATA #REQUIRED
          identifier       CDATA #REQUIRED
          sourceName       CDATA #REQUIRED
          sourceURL        CDATA #REQUIRED
          fhirVersion      CDATA #REQUIRED
          receivedDate     CDATA #REQUIRED
          resourceFilePath CDATA #REQUIRED
        >
        <!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>
        <!ATTLIST Audiogram
          type          CDATA #REQUIRED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT SensitivityPoint EMPTY>
        <!ATTLIST SensitivityPoint
          frequencyValue CDATA #REQUIRED
          frequencyUnit  CDATA #REQUIRED
          leftEarValue   CDATA #IMPLIED
          leftEarUnit    CDATA #IMPLIED
          leftEarMasked  CDATA #IMPLIED
          rightEarValue  CDATA #IMPLIED
          rightEarUnit   CDATA #IMPLIED
          rightEarMasked CDATA #IMPLIED
        >
        <!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
        <!ATTLIST VisionPrescription
          type           CDATA #REQUIRED
          dateIssued     CDATA #REQUIRED
          expirationDate CDATA #IMPLIED
          brand          CDATA #IMPLIED
        >
        <!ELEMENT RightEye EMPTY>
        <!ATTLIST RightEye
          sphere       CDATA #IMPLIED
          sphereUnit   CDATA #IMPLIED
          cylinder     CDATA #IMPLIED
          cylinderUnit CDATA #IMPLIED
          axis         CDATA #IMPLIED
          axisUnit     CDATA #IMPLIED
        >
        <!ELEMENT LeftEye EMPTY>
        <!ATTLIST LeftEye
          sphere       CDATA #IMPLIED
          sphereUnit   CDATA #IMPLIED
          cylinder     CDATA #IMPLIED
          cylinderUnit CDATA #IMPLIED
          axis         CDATA #IMPLIED
          axisUnit     CDATA #IMPLIED
        >
        <!ELEMENT Attachment EMPTY>
        <!ATTLIST Attachment
          identifier CDATA #IMPLIED
        >
        ]>

        """
}
