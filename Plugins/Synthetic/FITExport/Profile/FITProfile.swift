/// The FIT profile's numbers this export writes: message and field numbers, and the enum values
/// it uses, as fitdecode 0.11.0's `profile.MESSAGE_TYPES` and `profile.FIELD_TYPES` list them.
/// Scales are noted where a field has one: raw = value × scale (+ offset × scale).
enum FITProfile {
    /// `timestamp` (date_time), in every message that has one.
    static let timestamp: UInt8 = 253
    /// `message_index`, numbering a file's laps, sessions and user profiles.
    static let messageIndex: UInt8 = 254

    /// `file` (file_id.type).
    enum FileType {
        static let activity: Int64 = 4
        static let weight: Int64 = 9
        static let bloodPressure: Int64 = 14
        static let monitoringB: Int64 = 32
        /// Garmin's sleep files; not in the public profile, so decoders show the number.
        static let sleep: Int64 = 49
    }

    enum Manufacturer {
        static let garmin: Int64 = 1
    }

    /// `garmin_product`.
    enum GarminProduct {
        static let fenix5: Int64 = 2697
        static let indexSmartScale: Int64 = 2429
    }

    /// `sport` and `sub_sport`, with the names a decoder reports.
    enum Sport {
        static let running: (value: Int64, name: String) = (1, "running")
        static let cycling: (value: Int64, name: String) = (2, "cycling")
    }

    enum SubSport {
        static let generic: (value: Int64, name: String) = (0, "generic")
        static let road: (value: Int64, name: String) = (7, "road")
    }

    /// `activity_type`, which also picks monitoring.cycles' subfield: steps for walking and
    /// running, strokes for cycling.
    enum ActivityType {
        static let running: Int64 = 1
        static let cycling: Int64 = 2
        static let walking: Int64 = 6
        static let sedentary: Int64 = 8
    }

    enum Event {
        static let timer: Int64 = 0
        static let session: Int64 = 8
        static let lap: Int64 = 9
        static let activity: Int64 = 26
    }

    enum EventType {
        static let start: Int64 = 0
        static let stop: Int64 = 1
        static let stopAll: Int64 = 4
    }

    enum LapTrigger {
        static let distance: Int64 = 2
        static let sessionEnd: Int64 = 7
    }

    /// `sleep_level`.
    enum SleepLevel {
        static let awake: Int64 = 1
        static let light: Int64 = 2
        static let deep: Int64 = 3
        static let rem: Int64 = 4
    }

    // MARK: - Messages every file type uses

    /// `file_id` (0): what the file is and which device made it.
    enum FileID {
        static let message: UInt16 = 0
        static let type: UInt8 = 0
        static let manufacturer: UInt8 = 1
        static let product: UInt8 = 2
        static let serialNumber: UInt8 = 3
        static let timeCreated: UInt8 = 4
    }

    /// `device_info` (23).
    enum DeviceInfo {
        static let message: UInt16 = 23
        static let deviceIndex: UInt8 = 0
        static let manufacturer: UInt8 = 2
        static let serialNumber: UInt8 = 3
        static let product: UInt8 = 4
        /// Scale 100.
        static let softwareVersion: UInt8 = 5
    }
}
