/// A deterministic simulated person: every day's sleep, activity, workout and measurements are a
/// pure function of (seed, day), so a day can be generated twice (once to count, once to write),
/// and each record type can be written in its own pass over the days, the way Apple groups them.
///
/// The day's shape is here; the records of each type are in `HealthModel+Records.swift` and the
/// files beside it.
final class HealthModel {
    private let seedKey: UInt64
    /// How much more often than a watch's usual few minutes the heart rate is sampled outside
    /// workouts (see `SampleDensity`); 1 is the natural day.
    let heartRateDensity: Double
    /// The day the user's preferred energy unit changes (set once the span is known).
    var unitSwitchDay = Int.max

    /// `samplesPerDay`: nil for the natural day, else a size within `SampleDensity.supported`.
    init(seed: UInt64, samplesPerDay: Int? = nil) {
        seedKey = SplitMix64.mix(seed ^ 0x6865_616C_7468_6574)
        heartRateDensity = samplesPerDay.map(SampleDensity.heartRateDensity) ?? 1
    }

    /// Each kind of decision draws from its own generator, so adding draws to one never moves
    /// another.
    enum Salt: UInt64 {
        case night = 1, day, workout, workoutHeartRate, bloodPressure, moveWatch, movePhone
        case streams = 100
    }

    private func generator(_ salt: UInt64, day: Int) -> SplitMix64 {
        SplitMix64(
            state: SplitMix64.mix(
                SplitMix64.mix(seedKey &+ salt &* 0x1000_0000_01B3) &+ UInt64(bitPattern: Int64(day))))
    }

    func generator(_ salt: Salt, day: Int) -> SplitMix64 { generator(salt.rawValue, day: day) }

    func generator(_ stream: HealthType, day: Int) -> SplitMix64 {
        generator(Salt.streams.rawValue + UInt64(stream.rawValue), day: day)
    }

    // MARK: the day

    /// The night ending on the morning of `day`: bedtime 22:30–00:30, waking 6:00–7:30 on
    /// weekdays and 7:00–9:00 at weekends (Pacific wall clock).
    func night(_ day: Int) -> (start: Int64, wake: Int64) {
        var random = generator(.night, day: day)
        let bed = random.int(-5400, 1800)
        let weekday = CivilTime.weekday(days: day)
        let weekend = weekday == 0 || weekday == 6
        let wake = weekend ? random.int(7 * 3600, 9 * 3600) : random.int(6 * 3600, 7 * 3600 + 1800)
        return (CivilTime.instant(day: day, second: bed), CivilTime.instant(day: day, second: wake))
    }

    func plan(_ day: Int) -> DayPlan {
        let tonight = night(day)
        let tomorrow = night(day + 1)
        var random = generator(.day, day: day)
        let activity = random.uniform(0.7, 1.35)
        return DayPlan(
            day: day, sleepStart: tonight.start, wake: tonight.wake, bedNext: tomorrow.start,
            activity: activity, workout: workout(day, wake: tonight.wake))
    }

    private func workout(_ day: Int, wake: Int64) -> WorkoutPlan? {
        var random = generator(.workout, day: day)
        let weekday = CivilTime.weekday(days: day)
        let weekend = weekday == 0 || weekday == 6
        guard random.chance(weekend ? 0.6 : 0.38) else { return nil }
        let running = random.chance(0.6)
        let start =
            weekend
            ? wake + random.int64(3600, 9000)
            : CivilTime.instant(day: day, second: random.int(17 * 3600 + 900, 19 * 3600))
        let active = running ? random.int64(24 * 60, 55 * 60) : random.int64(30 * 60, 75 * 60)
        var pauses: [WorkoutPause] = []
        let pauseCount = random.chance(0.35) ? (random.chance(0.3) ? 2 : 1) : 0
        var offsets = (0..<pauseCount).map { _ in random.int64(300, active - 300) }
        offsets.sort()
        var shift: Int64 = 0
        for offset in offsets {
            let length = random.int64(30, 240)
            let pausedAt = start + offset + shift
            pauses.append(WorkoutPause(pausedAt: pausedAt, resumedAt: pausedAt + length))
            shift += length
        }
        let end = start + active + shift
        let minutesPerKilometre = running ? random.uniform(4.9, 6.3) : random.uniform(9.0, 12.0)
        let activeMinutes = Double(active) / 60
        let metres = activeMinutes / minutesPerKilometre * 1000
        let kilocaloriesPerMinute = running ? random.uniform(10.5, 13.5) : random.uniform(4.2, 6.0)
        let cadence = running ? random.uniform(158, 176) : random.uniform(102, 118)
        return WorkoutPlan(
            running: running, start: start, end: end, pauses: pauses, activeSeconds: active,
            metres: metres, activeKilocalories: kilocaloriesPerMinute * activeMinutes,
            basalKilocalories: random.uniform(1.1, 1.25) * Double(end - start) / 60,
            steps: Int(cadence * activeMinutes), phoneCarried: random.chance(0.5),
            temperatureFahrenheit: random.int(41, 79), humidityHundredths: random.int(30, 96) * 100,
            elevationCentimetres: random.int(150, 9000), uuidHigh: random.next(), uuidLow: random.next(),
            targetBPM: running ? random.uniform(148, 166) : random.uniform(102, 120),
            created: end + random.int64(2, 40), durationFraction: random.int64(0, 9_999_999_999))
    }

    /// The watch's heart-rate samples during a workout, every 4–8 s.
    func workoutHeartRates(_ workout: WorkoutPlan, day: Int) -> [(time: Int64, bpm: Int64)] {
        var random = generator(.workoutHeartRate, day: day)
        var samples: [(time: Int64, bpm: Int64)] = []
        samples.reserveCapacity(Int((workout.end - workout.start) / 5) + 1)
        var time = workout.start + random.int64(2, 9)
        var bpm = 80.0
        while time < workout.end {
            let ramp = min(1.0, Double(time - workout.start) / 360)
            let goal = workout.isPaused(time) ? 100.0 : 78 + (workout.targetBPM - 78) * ramp
            bpm += (goal - bpm) * 0.3 + random.normal(0, 2.2)
            samples.append((time, Int64(max(60, min(195, bpm.rounded())))))
            time += random.int64(4, 8)
        }
        return samples
    }

    func bloodPressure(_ day: Int) -> BloodPressureReading? {
        var random = generator(.bloodPressure, day: day)
        guard random.chance(0.34) else { return nil }
        let time = night(day).wake + random.int64(900, 2700)
        let manual = random.chance(0.3)
        let systolic = random.int64(108, 138)
        let diastolic = min(random.int64(66, 90), systolic - 30)
        let created = manual ? time + random.int64(60, 7200) : time + random.int64(8, 90)
        return BloodPressureReading(
            time: time, created: created, systolic: systolic, diastolic: diastolic,
            manual: manual, noise: random.next())
    }

    // MARK: units (the user's display preference changes once, per source)

    func energyUnit(_ source: Source, day: Int) -> ExportUnit {
        let early = day < unitSwitchDay
        switch source {
        case .phone: return early ? .kilojoule : .kilocalorie
        default: return early ? .kilocalorie : .kilojoule
        }
    }

    func distanceUnit(_ source: Source) -> ExportUnit { source == .phone ? .mile : .kilometre }
}
