extension FITProfile {
    /// `sleep_level` (275): the level from this timestamp on.
    enum SleepLevelMessage {
        static let message: UInt16 = 275
        static let level: UInt8 = 0
    }

    /// `hrv_status_summary` (370): milliseconds × 128.
    enum HRVStatusSummary {
        static let message: UInt16 = 370
        static let weeklyAverage: UInt8 = 0
        static let lastNightAverage: UInt8 = 1
        static let lastNight5MinHigh: UInt8 = 2
        static let baselineLowUpper: UInt8 = 3
        static let baselineBalancedLower: UInt8 = 4
        static let baselineBalancedUpper: UInt8 = 5
        /// `hrv_status`: 4 balanced.
        static let status: UInt8 = 6
    }

    /// `weight_scale` (30): one weigh-in.
    enum WeightScale {
        static let message: UInt16 = 30
        /// Scale 100, kg (and bone_mass, muscle_mass).
        static let weight: UInt8 = 0
        /// Scale 100, % (and percent_hydration).
        static let percentFat: UInt8 = 1
        static let percentHydration: UInt8 = 2
        static let boneMass: UInt8 = 4
        static let muscleMass: UInt8 = 5
        static let userProfileIndex: UInt8 = 12
        /// Scale 10, kg/m².
        static let bmi: UInt8 = 13
    }

    /// `user_profile` (3): the scale's settings for one person, not a measurement.
    enum UserProfile {
        static let message: UInt16 = 3
        static let gender: UInt8 = 1
        static let age: UInt8 = 2
        /// Scale 100, metres.
        static let height: UInt8 = 3
        /// Scale 10, kg: the weight the person entered.
        static let weight: UInt8 = 4
        /// `display_measure`: 0 metric.
        static let weightSetting: UInt8 = 7
    }

    /// `blood_pressure` (51).
    enum BloodPressure {
        static let message: UInt16 = 51
        static let systolic: UInt8 = 0
        static let diastolic: UInt8 = 1
        static let meanArterialPressure: UInt8 = 2
        static let heartRate: UInt8 = 6
        /// `hr_type`: 0 normal.
        static let heartRateType: UInt8 = 7
        /// `bp_status`: 0 no_error.
        static let status: UInt8 = 8
        static let userProfileIndex: UInt8 = 9
    }
}
