extension FITProfile {
    /// `monitoring_info` (103): the day's local time and conversion factors.
    enum MonitoringInfo {
        static let message: UInt16 = 103
        static let localTimestamp: UInt8 = 0
        static let activityType: UInt8 = 1
        static let restingMetabolicRate: UInt8 = 5
    }

    /// `monitoring` (55): the all-day counters.
    enum Monitoring {
        static let message: UInt16 = 55
        /// Scale 100, metres; cumulative per activity type since local midnight.
        static let distance: UInt8 = 2
        /// Cumulative per activity type; for walking and running the raw value is steps.
        static let cycles: UInt8 = 3
        /// Scale 1000, seconds.
        static let activeTime: UInt8 = 4
        static let activityType: UInt8 = 5
        static let activeCalories: UInt8 = 19
        /// Activity type in bits 0–4, intensity in bits 5–7.
        static let currentActivityTypeIntensity: UInt8 = 24
        /// The low 16 bits of the timestamp, after a full one.
        static let timestamp16: UInt8 = 26
        static let heartRate: UInt8 = 27
        static let moderateActivityMinutes: UInt8 = 33
        static let vigorousActivityMinutes: UInt8 = 34
    }

    /// `stress_level` (227): no timestamp field; its own time field instead.
    enum StressLevel {
        static let message: UInt16 = 227
        /// sint16; negative when it could not be measured (off wrist, too active).
        static let value: UInt8 = 0
        static let time: UInt8 = 1
    }

    /// `respiration_rate` (297): sint16, scale 100, breaths per minute.
    enum RespirationRate {
        static let message: UInt16 = 297
        static let rate: UInt8 = 0
    }

    /// `monitoring_hr_data` (211).
    enum MonitoringHeartRateData {
        static let message: UInt16 = 211
        static let restingHeartRate: UInt8 = 0
        static let currentDayRestingHeartRate: UInt8 = 1
    }

    /// `spo2_data` (269).
    enum SpO2Data {
        static let message: UInt16 = 269
        static let readingSpO2: UInt8 = 0
        static let readingConfidence: UInt8 = 1
        /// `spo2_measurement_type`: 3 periodic.
        static let mode: UInt8 = 2
    }
}
