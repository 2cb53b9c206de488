/// The global message and field numbers the importer reads, with their scales and offsets, as
/// the published FIT profile defines them (a value is `raw / scale - offset`).
enum FITProfile {
    static let fileID: UInt16 = 0
    static let userProfile: UInt16 = 3
    static let sport: UInt16 = 12
    static let session: UInt16 = 18
    static let lap: UInt16 = 19
    static let record: UInt16 = 20
    static let event: UInt16 = 21
    static let weightScale: UInt16 = 30
    static let activity: UInt16 = 34
    static let bloodPressure: UInt16 = 51
    static let monitoring: UInt16 = 55
    static let hrv: UInt16 = 78
    static let heartRates: UInt16 = 132
    static let monitoringInfo: UInt16 = 103
    static let monitoringHRData: UInt16 = 211
    static let stressLevel: UInt16 = 227
    static let spo2Data: UInt16 = 269
    static let sleepLevel: UInt16 = 275
    static let respirationRate: UInt16 = 297
    static let hrvStatusSummary: UInt16 = 370

    /// Messages that hold measurements: one the importer does not map is counted as `not_mapped`.
    /// Every other message describes the file, the device or its settings.
    static let healthMessages: Set<String> = [
        "record", "session", "lap", "length", "hrv", "hr", "monitoring", "weight_scale", "blood_pressure",
        "stress_level", "spo2_data", "sleep_level", "respiration_rate", "hrv_status_summary", "hrv_value", "raw_bbi",
        "beat_intervals", "monitoring_hr_data", "max_met_data", "sleep_assessment", "skin_temp_overnight", "set",
        "split", "split_summary", "dive_summary", "jump", "time_in_zone", "segment_lap", "hsa_step_data",
        "hsa_spo2_data", "hsa_stress_data", "hsa_respiration_data", "hsa_heart_rate_data", "hsa_body_battery_data",
        "hsa_wrist_temperature_data", "climb_pro",
    ]

    enum FileID {
        static let manufacturer: UInt8 = 1
        static let product: UInt8 = 2
        static let serialNumber: UInt8 = 3
        static let productName: UInt8 = 8
    }

    enum Sport {
        static let sport: UInt8 = 0
        static let subSport: UInt8 = 1
    }

    enum Activity {
        static let localTimestamp: UInt8 = 5
    }

    enum Event {
        static let event: UInt8 = 0
        static let eventType: UInt8 = 1
        /// `event` value: the timer.
        static let timer: UInt64 = 0
        /// `event_type` values.
        static let start: UInt64 = 0
        static let stop: UInt64 = 1
        static let stopAll: UInt64 = 4
    }

    enum Record {
        static let positionLat: UInt8 = 0
        static let positionLong: UInt8 = 1
        static let altitude: UInt8 = 2  // scale 5, offset 500, m
        static let heartRate: UInt8 = 3
        static let cadence: UInt8 = 4
        static let speed: UInt8 = 6  // scale 1000, m/s
        static let power: UInt8 = 7
        static let enhancedSpeed: UInt8 = 73  // scale 1000, m/s
        static let enhancedAltitude: UInt8 = 78  // scale 5, offset 500, m
    }

    enum Lap {
        static let startTime: UInt8 = 2
        static let totalElapsedTime: UInt8 = 7  // scale 1000, s
        static let totalDistance: UInt8 = 9  // scale 100, m
    }

    enum Session {
        static let startTime: UInt8 = 2
        static let sport: UInt8 = 5
        static let subSport: UInt8 = 6
        static let totalElapsedTime: UInt8 = 7  // scale 1000, s
        static let totalTimerTime: UInt8 = 8  // scale 1000, s
        static let totalDistance: UInt8 = 9  // scale 100, m
        static let totalCalories: UInt8 = 11  // kcal
        static let averageHeartRate: UInt8 = 16
        static let maximumHeartRate: UInt8 = 17
        static let averageCadence: UInt8 = 18
        static let maximumCadence: UInt8 = 19
        static let averagePower: UInt8 = 20
        static let maximumPower: UInt8 = 21
        static let totalAscent: UInt8 = 22  // m
        static let totalDescent: UInt8 = 23  // m
    }

    enum HRV {
        static let time: UInt8 = 0  // array, scale 1000, s
    }

    /// `hr`: heart rate a strap stored while the watch could not read it (swimming), sent after
    /// the activity; each value's time is an event time counted from an anchor message.
    enum HeartRates {
        static let fractionalTimestamp: UInt8 = 0  // scale 32768, s
        static let filteredBPM: UInt8 = 6  // array
        static let eventTimestamp: UInt8 = 9  // array, scale 1024, s
        static let eventTimestamp12: UInt8 = 10  // bytes: 12-bit parts of event_timestamp, accumulated
    }

    enum Monitoring {
        static let distance: UInt8 = 2  // cumulative, scale 100, m
        static let cycles: UInt8 = 3  // cumulative; steps for walking and running
        static let activityType: UInt8 = 5
        static let activeCalories: UInt8 = 19  // cumulative, kcal
        static let currentActivityTypeIntensity: UInt8 = 24  // activity type in bits 0–4
        static let heartRate: UInt8 = 27
        static let moderateActivityMinutes: UInt8 = 33  // the day's so far
        static let vigorousActivityMinutes: UInt8 = 34  // the day's so far
        /// `activity_type` values.
        static let running: UInt64 = 1
        static let cycling: UInt64 = 2
        static let swimming: UInt64 = 5
        static let walking: UInt64 = 6
    }

    enum StressLevel {
        static let value: UInt8 = 0  // sint16; negative: not measured
        static let time: UInt8 = 1  // date_time
    }

    enum SleepLevel {
        static let level: UInt8 = 0
    }

    enum WeightScale {
        static let weight: UInt8 = 0  // scale 100, kg; 0xFFFE: still calculating
        static let percentFat: UInt8 = 1  // scale 100, %
        static let percentHydration: UInt8 = 2  // scale 100, %
        static let boneMass: UInt8 = 4  // scale 100, kg
        static let muscleMass: UInt8 = 5  // scale 100, kg
        static let basalMet: UInt8 = 7  // scale 4, kcal/day
        static let userProfileIndex: UInt8 = 12
        static let bmi: UInt8 = 13  // scale 10, kg/m²
    }

    enum BloodPressure {
        static let systolic: UInt8 = 0
        static let diastolic: UInt8 = 1
        static let heartRate: UInt8 = 6
        static let userProfileIndex: UInt8 = 9
    }
}
