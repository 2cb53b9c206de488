/// One night as a watch's sleep file holds it: a `sleep_level` message at each change of level
/// (awake, light, deep, REM) from bedtime to waking, then the night's `hrv_status_summary`. The
/// night ends on the morning of `day`; its file is named after that day.
struct FITSleepNight {
    /// Local day number of the morning the night ends.
    let day: Int
    let utcOffsetSeconds: Int
    let watch: FITDevice
    let seed: UInt64

    private typealias Level = FITProfile.SleepLevel

    private static let sleepLevel = FITMessageDefinition(
        "sleep_level", FITProfile.SleepLevelMessage.message,
        [
            FITFieldDefinition(FITProfile.timestamp, .uint32),
            FITFieldDefinition(FITProfile.SleepLevelMessage.level, .enumeration),
        ])

    private static let hrvStatus = FITMessageDefinition(
        "hrv_status_summary", FITProfile.HRVStatusSummary.message,
        [
            FITFieldDefinition(FITProfile.timestamp, .uint32),
            FITFieldDefinition(FITProfile.HRVStatusSummary.weeklyAverage, .uint16),
            FITFieldDefinition(FITProfile.HRVStatusSummary.lastNightAverage, .uint16),
            FITFieldDefinition(FITProfile.HRVStatusSummary.lastNight5MinHigh, .uint16),
            FITFieldDefinition(FITProfile.HRVStatusSummary.baselineLowUpper, .uint16),
            FITFieldDefinition(FITProfile.HRVStatusSummary.baselineBalancedLower, .uint16),
            FITFieldDefinition(FITProfile.HRVStatusSummary.baselineBalancedUpper, .uint16),
            FITFieldDefinition(FITProfile.HRVStatusSummary.status, .enumeration),
        ])

    func encode() -> FITEncodedFile {
        var random = SplitMix64.substream(seed: seed, kind: 0x534C_4550, index: day)
        let localMidnight = Int64(day) * 86_400
        let bedtime = localMidnight - Int64(random.int(30, 120) * 60) - Int64(utcOffsetSeconds)
        let wake = localMidnight + Int64(random.int(345, 450) * 60) - Int64(utcOffsetSeconds)

        var fit = FITFileEncoder()
        fit.writeFileID(0, type: FITProfile.FileType.sleep, device: watch, created: wake)
        fit.define(1, Self.sleepLevel)
        var time = bedtime
        var level = Level.awake
        var cycle = 0
        // Falling asleep, then ~90-minute cycles: light, deep (less of it as the night goes on),
        // light, REM (more of it), and now and then a few minutes awake between cycles.
        var stages: [(level: Int64, minutes: Int)] = [(Level.awake, random.int(5, 20))]
        while time < wake {
            for (stageLevel, minutes) in stages where time < wake {
                if stageLevel != level || time == bedtime {
                    fit.write(
                        1, [FITProfile.timestamp: .time(time), FITProfile.SleepLevelMessage.level: .int(stageLevel)])
                    level = stageLevel
                }
                time += Int64(minutes * 60)
            }
            stages = [
                (Level.light, random.int(20, 40)), (Level.deep, max(5, random.int(15, 40) - cycle * 6)),
                (Level.light, random.int(10, 20)), (Level.rem, random.int(10, 20) + cycle * 4),
            ]
            if random.chance(0.4) { stages.append((Level.awake, random.int(2, 6))) }
            cycle += 1
        }
        if level != Level.awake {
            fit.write(1, [FITProfile.timestamp: .time(wake), FITProfile.SleepLevelMessage.level: .int(Level.awake)])
        }

        typealias Summary = FITProfile.HRVStatusSummary
        let baseline = random.uniform(44, 52)
        fit.define(2, Self.hrvStatus)
        fit.write(
            2,
            [
                FITProfile.timestamp: .time(wake),
                Summary.weeklyAverage: .scaled(baseline, 128),
                Summary.lastNightAverage: .scaled(baseline + random.normal(0, 4), 128),
                Summary.lastNight5MinHigh: .scaled(baseline + random.uniform(12, 20), 128),
                Summary.baselineLowUpper: .scaled(baseline - 8, 128),
                Summary.baselineBalancedLower: .scaled(baseline - 5, 128),
                Summary.baselineBalancedUpper: .scaled(baseline + 6, 128),
                Summary.status: .int(4),
            ])

        var file = FITEncodedFile(kind: .sleep)
        file.append(fit)
        return file
    }
}
