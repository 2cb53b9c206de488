extension FITProfile {
    /// `event` (21): the timer's start and stop.
    enum EventMessage {
        static let message: UInt16 = 21
        static let event: UInt8 = 0
        static let eventType: UInt8 = 1
        static let eventGroup: UInt8 = 4
    }

    /// `record` (20): one second of an activity.
    enum Record {
        static let message: UInt16 = 20
        /// Semicircles: degrees × 2³¹ / 180.
        static let positionLat: UInt8 = 0
        static let positionLong: UInt8 = 1
        static let heartRate: UInt8 = 3
        static let cadence: UInt8 = 4
        /// Scale 100, metres.
        static let distance: UInt8 = 5
        static let power: UInt8 = 7
        /// Scale 1000, m/s.
        static let enhancedSpeed: UInt8 = 73
        /// Scale 5, offset 500, metres.
        static let enhancedAltitude: UInt8 = 78
    }

    /// `hrv` (78): beat-to-beat intervals, five slots of seconds × 1000; unused slots invalid.
    enum HRV {
        static let message: UInt16 = 78
        static let time: UInt8 = 0
        static let slots = 5
    }

    /// `lap` (19).
    enum Lap {
        static let message: UInt16 = 19
        static let event: UInt8 = 0
        static let eventType: UInt8 = 1
        static let startTime: UInt8 = 2
        /// Scale 1000, seconds (and total_timer_time).
        static let totalElapsedTime: UInt8 = 7
        static let totalTimerTime: UInt8 = 8
        /// Scale 100, metres.
        static let totalDistance: UInt8 = 9
        static let totalCalories: UInt8 = 11
        static let avgHeartRate: UInt8 = 15
        static let maxHeartRate: UInt8 = 16
        static let totalAscent: UInt8 = 21
        static let lapTrigger: UInt8 = 24
        static let sport: UInt8 = 25
    }

    /// `session` (18): the activity's totals.
    enum Session {
        static let message: UInt16 = 18
        static let event: UInt8 = 0
        static let eventType: UInt8 = 1
        static let startTime: UInt8 = 2
        static let sport: UInt8 = 5
        static let subSport: UInt8 = 6
        /// Scale 1000, seconds (and total_timer_time).
        static let totalElapsedTime: UInt8 = 7
        static let totalTimerTime: UInt8 = 8
        /// Scale 100, metres.
        static let totalDistance: UInt8 = 9
        static let totalCalories: UInt8 = 11
        static let avgHeartRate: UInt8 = 16
        static let maxHeartRate: UInt8 = 17
        static let totalAscent: UInt8 = 22
        static let totalDescent: UInt8 = 23
        static let firstLapIndex: UInt8 = 25
        static let numLaps: UInt8 = 26
        static let trigger: UInt8 = 28
    }

    /// `activity` (34): closes the file.
    enum Activity {
        static let message: UInt16 = 34
        /// Scale 1000, seconds.
        static let totalTimerTime: UInt8 = 0
        static let numSessions: UInt8 = 1
        static let type: UInt8 = 2
        static let event: UInt8 = 3
        static let eventType: UInt8 = 4
        static let localTimestamp: UInt8 = 5
    }
}
