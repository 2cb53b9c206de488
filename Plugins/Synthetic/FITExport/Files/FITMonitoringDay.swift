/// One local day of a watch's all-day monitoring (file type monitoring_b), from midnight: a
/// `monitoring` message every minute (heart rate and the current activity, with `timestamp_16`
/// after the day's one full timestamp), each active minute's cumulative counters for walking,
/// running or cycling (reset at midnight), intensity minutes at the end of active hours, stress
/// every three minutes, respiration every ten, SpO2 through the night (compressed-timestamp
/// headers), and the day's resting heart rate. The day's run or ride shows as running or
/// cycling minutes.
struct FITMonitoringDay {
    /// Local day number (days since 1970-01-01 on the watch's wall clock).
    let day: Int
    let utcOffsetSeconds: Int
    let watch: FITDevice
    let activities: [FITActivityPlan]
    let seed: UInt64

    private typealias Monitoring = FITProfile.Monitoring
    private typealias ActivityType = FITProfile.ActivityType

    /// Local message types. Four are defined again once their first use is over, as watches do
    /// to stay within sixteen.
    private enum Local {
        static let fileID = 0
        static let heartRate = 0
        static let creator = 1
        static let counters = 1
        static let spO2 = 2
        static let intensityMinutes = 3
        static let info = 4
        static let midnight = 4
        static let stress = 5
        static let restingHeartRate = 5
        static let respiration = 6
    }

    /// The day so far: each activity type's counters, intensity minutes, stress.
    private struct Tally {
        var counters: [Int64: FITMonitoringCounters] = [:]
        var moderateMinutes = 0
        var vigorousMinutes = 0
        var exercisedThisHour = false
        var stress: Double
        var stressLevels = 0

        func cycles(_ kind: Int64) -> Int64 { counters[kind]?.cycles ?? 0 }
    }

    func encode() -> FITEncodedFile {
        var random = SplitMix64.substream(seed: seed, kind: 0x4D4F_4E49, index: day)
        let midnight = Int64(day) * 86_400 - Int64(utcOffsetSeconds)
        let kinds = minuteKinds(&random, midnight: midnight)
        let restingHeartRate = random.int(50, 60)
        var fit = FITFileEncoder()
        writeOpening(&fit, midnight: midnight)

        var tally = Tally(stress: Double(random.int(20, 35)))
        for minute in 0..<1440 {
            let time = midnight + Int64(minute * 60 + (minute == 0 ? 0 : random.int(0, 4)))
            writeMinute(
                &fit, minute, at: time, kind: kinds[minute], restingHeartRate: restingHeartRate, &tally, &random)
        }
        fit.define(Local.restingHeartRate, FITMonitoringLayouts.restingHeartRate)
        fit.write(
            Local.restingHeartRate,
            [
                FITProfile.timestamp: .time(midnight + 86_370),
                FITProfile.MonitoringHeartRateData.restingHeartRate: .int(Int64(restingHeartRate)),
                FITProfile.MonitoringHeartRateData.currentDayRestingHeartRate: .int(Int64(restingHeartRate)),
            ])

        var file = FITEncodedFile(kind: .monitoring)
        file.append(fit)
        file.written.steps = Int(tally.cycles(ActivityType.walking) + tally.cycles(ActivityType.running))
        file.written.stressLevels = tally.stressLevels
        return file
    }

    /// file_id, the watch, monitoring_info, the day's first full timestamp with the counters at
    /// zero, then the layouts the minutes use.
    private func writeOpening(_ fit: inout FITFileEncoder, midnight: Int64) {
        fit.writeFileID(Local.fileID, type: FITProfile.FileType.monitoringB, device: watch, created: midnight)
        fit.writeCreator(Local.creator, device: watch, at: midnight)
        fit.define(Local.info, FITMonitoringLayouts.info)
        fit.write(
            Local.info,
            [
                FITProfile.timestamp: .time(midnight),
                FITProfile.MonitoringInfo.localTimestamp: .time(midnight + Int64(utcOffsetSeconds)),
                FITProfile.MonitoringInfo.restingMetabolicRate: .int(1_720),
                FITProfile.MonitoringInfo.activityType: .ints([ActivityType.walking, ActivityType.running]),
            ])
        fit.define(Local.midnight, FITMonitoringLayouts.midnight)
        fit.write(
            Local.midnight,
            [
                FITProfile.timestamp: .time(midnight), Monitoring.cycles: .int(0), Monitoring.distance: .int(0),
                Monitoring.activeCalories: .int(0), Monitoring.activityType: .int(ActivityType.walking),
            ])
        fit.define(Local.heartRate, FITMonitoringLayouts.heartRate)
        fit.define(Local.counters, FITMonitoringLayouts.counters)
        fit.define(Local.spO2, FITMonitoringLayouts.spO2)
        fit.define(Local.intensityMinutes, FITMonitoringLayouts.intensityMinutes)
        fit.define(Local.stress, FITMonitoringLayouts.stress)
        fit.define(Local.respiration, FITMonitoringLayouts.respiration)
    }

    /// Asleep before 06:30 and from 22:30.
    private static func asleep(_ minute: Int) -> Bool { minute < 390 || minute >= 1350 }

    private func writeMinute(
        _ fit: inout FITFileEncoder, _ minute: Int, at time: Int64, kind: Int64, restingHeartRate: Int,
        _ tally: inout Tally, _ random: inout SplitMix64
    ) {
        let asleep = Self.asleep(minute)
        var intensity: Int64 = asleep ? 0 : 1
        var heartRate = Double(restingHeartRate) + (asleep ? random.normal(2, 1.5) : random.normal(12, 5))
        switch kind {
        case ActivityType.walking:
            intensity = Int64(random.int(2, 3))
            heartRate = random.normal(94, 5)
            if intensity == 3 { tally.moderateMinutes += 1 }
        case ActivityType.running:
            intensity = 6
            heartRate = random.normal(150, 6)
            tally.vigorousMinutes += 1
        case ActivityType.cycling:
            intensity = 5
            heartRate = random.normal(135, 6)
            tally.vigorousMinutes += 1
        default: break
        }
        tally.exercisedThisHour = tally.exercisedThisHour || intensity >= 3
        let time16 = FITValue.int(FITTime.fitSeconds(time) & 0xFFFF)
        fit.write(
            Local.heartRate,
            [
                Monitoring.timestamp16: time16,
                Monitoring.heartRate: .int(Int64(heartRate.rounded())),
                Monitoring.currentActivityTypeIntensity: .int(kind | intensity << 5),
            ])
        if kind != ActivityType.sedentary {
            var counter = tally.counters[kind, default: FITMonitoringCounters()]
            counter.addMinute(kind, &random)
            tally.counters[kind] = counter
            fit.write(
                Local.counters,
                [
                    Monitoring.timestamp16: time16,
                    Monitoring.cycles: .int(counter.cycles),
                    Monitoring.distance: .int(counter.centimetres),
                    Monitoring.activeTime: .int(counter.activeMilliseconds),
                    Monitoring.activeCalories: .int(Int64(counter.kilocalories)),
                    Monitoring.activityType: .int(kind),
                ])
        }
        if minute % 3 == 0 {
            // A negative value says why there is none: -2 too active, -1 off the wrist.
            tally.stress = min(80, max(5, tally.stress + random.normal(asleep ? -1 : 0.3, 4)))
            let value: Int64 = intensity >= 5 ? -2 : random.chance(0.01) ? -1 : Int64(tally.stress.rounded())
            if value >= 0 { tally.stressLevels += 1 }
            fit.write(
                Local.stress, [FITProfile.StressLevel.value: .int(value), FITProfile.StressLevel.time: .time(time)])
        }
        if minute % 10 == 0 {
            let rate = asleep ? random.uniform(12, 15) : random.uniform(14, 18)
            fit.write(
                Local.respiration,
                [FITProfile.timestamp: .time(time + 1), FITProfile.RespirationRate.rate: .scaled(rate, 100)])
            if asleep {
                // Within 31 s of the respiration rate's full timestamp, so a compressed header reaches it.
                fit.writeCompressed(
                    Local.spO2, at: time + 1 + Int64(random.int(2, 20)),
                    [
                        FITProfile.SpO2Data.readingSpO2: .int(Int64(random.int(92, 99))),
                        FITProfile.SpO2Data.readingConfidence: .int(Int64(random.int(1, 3))),
                        FITProfile.SpO2Data.mode: .int(3),
                    ])
            }
        }
        if minute % 60 == 59 && tally.exercisedThisHour {
            fit.write(
                Local.intensityMinutes,
                [
                    FITProfile.timestamp: .time(time + 2),
                    Monitoring.moderateActivityMinutes: .int(Int64(tally.moderateMinutes)),
                    Monitoring.vigorousActivityMinutes: .int(Int64(tally.vigorousMinutes)),
                ])
            tally.exercisedThisHour = false
        }
    }

    /// Each minute's activity type: sedentary, walks during the day, and the day's run or ride.
    private func minuteKinds(_ random: inout SplitMix64, midnight: Int64) -> [Int64] {
        var kinds = [Int64](repeating: ActivityType.sedentary, count: 1440)
        for _ in 0..<random.int(6, 12) {
            let start = random.int(7 * 60, 21 * 60)
            for minute in start..<min(1350, start + random.int(4, 30)) { kinds[minute] = ActivityType.walking }
        }
        for activity in activities where activity.start < midnight + 86_400 && activity.end > midnight {
            let first = max(0, Int((activity.start - midnight) / 60))
            let last = min(1439, Int((activity.end - midnight) / 60))
            let kind = activity.sport == .run ? ActivityType.running : ActivityType.cycling
            for minute in first...last { kinds[minute] = kind }
        }
        return kinds
    }
}
