import HealthETLCore

/// Monitoring (wellness) and sleep files: deltas of the cumulative counters, heart rate, stress,
/// respiration, SpO2, resting heart rate, sleep stages and the nightly HRV summary.
extension FITMessageMapper {
    /// Messages holding one value at their time: the message, the field's name and number, its
    /// scale, and whether a negative value means "not measured".
    private static let singleValues: [UInt16: (message: String, field: String, number: UInt8, scale: Double)] = [
        FITProfile.respirationRate: ("respiration_rate", "respiration_rate", 0, 100),
        FITProfile.spo2Data: ("spo2_data", "reading_spo2", 0, 1),
        FITProfile.monitoringHRData: ("monitoring_hr_data", "resting_heart_rate", 0, 1),
        FITProfile.hrvStatusSummary: ("hrv_status_summary", "last_night_average", 1, 128),
    ]
    /// The activity types a monitoring counter is kept for, by the name mappings use.
    private static let activityNames: [UInt64: String] = [
        FITProfile.Monitoring.walking: "walking", FITProfile.Monitoring.running: "running",
        FITProfile.Monitoring.cycling: "cycling", FITProfile.Monitoring.swimming: "swimming",
    ]

    mutating func readMonitoring(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        guard let time = message.timestamp else {
            // A `timestamp_16` before any full time: nothing says which day it is.
            warnings["monitoring_without_time", default: 0] += 1
            return
        }
        typealias Field = FITProfile.Monitoring
        if firstMonitoringTime == nil {
            firstMonitoringTime = time
            countsFromMidnight = utcOffsetSeconds.map { (Int64(time) + Int64($0)) % 86_400 == 0 } ?? false
        }
        defer { lastMonitoringTime = time }
        // The day's intensity minutes so far, whatever the activity.
        for (field, name) in [
            (Field.moderateActivityMinutes, "moderate_activity_minutes"),
            (Field.vigorousActivityMinutes, "vigorous_activity_minutes"),
        ] {
            if let minutes = message.number(field) {
                try count(field, name, activity: FITCounterKey.wholeDay, value: minutes, at: time, emit: emit)
            }
        }
        if let rate = message.unsigned(Field.heartRate), rate > 0,
            let record = record(targets.monitoringHeartRate, value: Double(rate), start: time)
        {
            try emit(.record(record))
        }
        guard
            let activity = message.unsigned(Field.activityType)
                ?? message.unsigned(Field.currentActivityTypeIntensity).map({ $0 & 0x1F })
        else { return }
        let name = Self.activityNames[activity]
        if activity == Field.walking || activity == Field.running, let steps = message.number(Field.cycles) {
            try count(Field.cycles, "steps", activity: activity, value: steps, at: time, emit: emit)
        }
        if let energy = message.number(Field.activeCalories) {
            try count(Field.activeCalories, "active_calories", activity: activity, value: energy, at: time, emit: emit)
        }
        if let distance = message.number(Field.distance, scale: 100) {
            try count(
                Field.distance, "distance", activity: activity, value: distance, at: time, sport: name, emit: emit)
        }
    }

    /// A cumulative counter's new reading: what it grew by since the last one, over the time
    /// between. A lower reading means the counter was reset (at midnight) and counts from zero.
    /// A counter's first reading counts from zero since the file's start when the file began at
    /// local midnight; otherwise it is where the file's counting starts (the day's earlier counts
    /// are in an earlier file).
    private mutating func count(
        _ field: UInt8, _ name: String, activity: UInt64, value: Double, at time: UInt32, sport: String? = nil,
        emit: (FITItem) throws -> Void
    ) throws {
        let key = FITCounterKey(field: field, activityType: activity)
        let start = countsFromMidnight ? firstMonitoringTime.map { FITCounterReading(value: 0, time: $0) } : nil
        let previous = counters[key] ?? start
        counters[key] = FITCounterReading(value: value, time: time)
        guard let previous else { return }
        let grown = value >= previous.value ? value - previous.value : value
        guard grown > 0,
            let record = record("monitoring", name, value: grown, start: previous.time, end: time, sport: sport)
        else { return }
        try emit(.record(record))
    }

    mutating func readStress(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        guard let value = message.number(FITProfile.StressLevel.value),
            let time = message.unsigned(FITProfile.StressLevel.time).map(UInt32.init(truncatingIfNeeded:))
                ?? message.timestamp
        else { return }
        // Negative values say why there is none (off wrist, moving too much).
        guard value >= 0 else {
            warnings["stress_not_measured", default: 0] += 1
            return
        }
        if let record = record(targets.stress, value: value, start: time) {
            try emit(.record(record))
        }
    }

    mutating func readWellnessValue(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        guard let spec = Self.singleValues[message.globalNumber], let time = message.timestamp,
            let value = message.number(spec.number, scale: spec.scale)
        else { return }
        guard value > 0 else {
            warnings["\(spec.message)_not_measured", default: 0] += 1
            return
        }
        if let record = record(spec.message, spec.field, value: value, start: time) { try emit(.record(record)) }
    }

    /// A `sleep_level` starts a stage that lasts until the next one; one of the same level
    /// continues it.
    mutating func readSleepLevel(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        guard let time = message.timestamp, let level = message.unsigned(FITProfile.SleepLevel.level) else { return }
        if let open = sleep, open.level == level { return }
        try closeSleep(at: time, emit: emit)
        sleep = (level, time)
    }

    mutating func closeSleep(at end: UInt32?, emit: (FITItem) throws -> Void) throws {
        guard let open = sleep else { return }
        sleep = nil
        guard let end, end > open.start else {
            warnings["sleep_level_without_end", default: 0] += 1
            return
        }
        guard let mapping = mappings.field("sleep_level", "sleep_level") else { return }
        try emit(
            .record(
                RawRecord(
                    type: mapping.identifier, sourceName: device.sourceName, device: device.description,
                    value: .text(mapping.values[String(open.level)] ?? String(open.level)), start: time(open.start),
                    end: time(end))))
    }
}
