/// A deterministic simulated person: every day's sleep, activity, workout and measurements are a
/// pure function of (seed, day), so a day can be generated twice (once to count, once to write),
/// and each record type can be written in its own pass over the days, the way Apple groups them.

enum ValueKind: UInt8 { case quantity, category, absent }

/// Metadata children of a Record (bit set).
enum Meta {
    static let timeZone: UInt8 = 1
    static let userEnteredNo: UInt8 = 2
    static let userEnteredYes: UInt8 = 4
    static let motionContext: UInt8 = 8
    static let beats: UInt8 = 16
}

/// One Record, before formatting.
struct Rec {
    var start: Int64
    var end: Int64
    var created: Int64
    /// The value's decimal mantissa (quantities) or a CategoryValue raw value.
    var value: Int64
    /// Per-record randomness used at write time: the device pointer, HRV beats.
    var noise: UInt64
    var source: Source
    var unit: ExportUnit
    var scale: UInt8
    var kind: ValueKind
    var metadata: UInt8
    var motion: UInt8
    /// Written twice, byte for byte (Apple's exports contain exact duplicates).
    var duplicate: Bool
}

struct Pause {
    let pause: Int64
    let resume: Int64
}

struct WorkoutPlan {
    let running: Bool
    let start: Int64
    let end: Int64
    let pauses: [Pause]
    let activeSeconds: Int64
    let metres: Double
    let activeKilocalories: Double
    let basalKilocalories: Double
    let steps: Int
    let phoneCarried: Bool
    let temperatureF: Int
    let humidityHundredths: Int
    let elevationCentimetres: Int
    let syncHigh: UInt64
    let syncLow: UInt64
    let targetBPM: Double
    let created: Int64
    let durationFraction: Int64

    func overlaps(_ from: Int64, _ to: Int64) -> Bool { from < end && to > start }
    func contains(_ t: Int64) -> Bool { t >= start && t < end }
    func isPaused(_ t: Int64) -> Bool { pauses.contains { t >= $0.pause && t < $0.resume } }
}

struct DayPlan {
    let day: Int
    /// Going to bed the evening before (the night that ends this morning).
    let sleepStart: Int64
    let wake: Int64
    /// Going to bed this evening.
    let bedNext: Int64
    let activity: Double
    let workout: WorkoutPlan?
}

struct BloodPressureReading {
    let time: Int64
    let created: Int64
    let systolic: Int64
    let diastolic: Int64
    let manual: Bool
    let noise: UInt64
}

struct Move {
    let start: Int64
    let end: Int64
    let steps: Int64
    let stride: Double
    let noise: UInt64
}

final class HealthModel {
    private let seedKey: UInt64
    /// How much more often than a watch's usual few minutes the heart rate is sampled outside
    /// workouts (see `SampleDensity`); 1 is the natural day.
    private let heartRateDensity: Double
    /// The day the user's preferred energy unit changes (set once the span is known).
    var unitSwitchDay = Int.max

    /// `samplesPerDay`: nil for the natural day, else a size within `SampleDensity.supported`.
    init(seed: UInt64, samplesPerDay: Int? = nil) {
        seedKey = SplitMix64.mix(seed ^ 0x6865_616C_7468_6574)
        heartRateDensity = samplesPerDay.map(SampleDensity.heartRateDensity) ?? 1
    }

    private enum Salt: UInt64 {
        case night = 1, day, workout, workoutHeartRate, bloodPressure, moveWatch, movePhone
        case streams = 100
    }

    private func rng(_ salt: UInt64, _ day: Int) -> SplitMix64 {
        SplitMix64(
            state: SplitMix64.mix(
                SplitMix64.mix(seedKey &+ salt &* 0x1000_0000_01B3) &+ UInt64(bitPattern: Int64(day))))
    }

    private func rng(_ salt: Salt, _ day: Int) -> SplitMix64 { rng(salt.rawValue, day) }
    private func rng(_ stream: HealthType, _ day: Int) -> SplitMix64 {
        rng(Salt.streams.rawValue + UInt64(stream.rawValue), day)
    }

    // MARK: the day

    /// The night ending on the morning of `day`: bedtime 22:30–00:30, waking 6:00–7:30 on
    /// weekdays and 7:00–9:00 at weekends (Pacific wall clock).
    func night(_ day: Int) -> (start: Int64, wake: Int64) {
        var r = rng(.night, day)
        let bed = r.int(-5400, 1800)
        let weekday = CivilTime.weekday(days: day)
        let weekend = weekday == 0 || weekday == 6
        let wake = weekend ? r.int(7 * 3600, 9 * 3600) : r.int(6 * 3600, 7 * 3600 + 1800)
        return (CivilTime.instant(day: day, second: bed), CivilTime.instant(day: day, second: wake))
    }

    func plan(_ day: Int) -> DayPlan {
        let tonight = night(day)
        let tomorrow = night(day + 1)
        var r = rng(.day, day)
        let activity = r.uniform(0.7, 1.35)
        return DayPlan(
            day: day, sleepStart: tonight.start, wake: tonight.wake, bedNext: tomorrow.start,
            activity: activity, workout: workout(day, wake: tonight.wake))
    }

    private func workout(_ day: Int, wake: Int64) -> WorkoutPlan? {
        var r = rng(.workout, day)
        let weekday = CivilTime.weekday(days: day)
        let weekend = weekday == 0 || weekday == 6
        guard r.chance(weekend ? 0.6 : 0.38) else { return nil }
        let running = r.chance(0.6)
        let start =
            weekend
            ? wake + r.int64(3600, 9000)
            : CivilTime.instant(day: day, second: r.int(17 * 3600 + 900, 19 * 3600))
        let active = running ? r.int64(24 * 60, 55 * 60) : r.int64(30 * 60, 75 * 60)
        var pauses: [Pause] = []
        let pauseCount = r.chance(0.35) ? (r.chance(0.3) ? 2 : 1) : 0
        var offsets = (0..<pauseCount).map { _ in r.int64(300, active - 300) }
        offsets.sort()
        var shift: Int64 = 0
        for offset in offsets {
            let length = r.int64(30, 240)
            let at = start + offset + shift
            pauses.append(Pause(pause: at, resume: at + length))
            shift += length
        }
        let end = start + active + shift
        let minutesPerKilometre = running ? r.uniform(4.9, 6.3) : r.uniform(9.0, 12.0)
        let activeMinutes = Double(active) / 60
        let metres = activeMinutes / minutesPerKilometre * 1000
        let kcalPerMinute = running ? r.uniform(10.5, 13.5) : r.uniform(4.2, 6.0)
        let cadence = running ? r.uniform(158, 176) : r.uniform(102, 118)
        return WorkoutPlan(
            running: running, start: start, end: end, pauses: pauses, activeSeconds: active,
            metres: metres, activeKilocalories: kcalPerMinute * activeMinutes,
            basalKilocalories: r.uniform(1.1, 1.25) * Double(end - start) / 60,
            steps: Int(cadence * activeMinutes), phoneCarried: r.chance(0.5),
            temperatureF: r.int(41, 79), humidityHundredths: r.int(30, 96) * 100,
            elevationCentimetres: r.int(150, 9000), syncHigh: r.next(), syncLow: r.next(),
            targetBPM: running ? r.uniform(148, 166) : r.uniform(102, 120),
            created: end + r.int64(2, 40), durationFraction: r.int64(0, 9_999_999_999))
    }

    /// The watch's heart-rate samples during a workout, every 4–8 s.
    func workoutHeartRates(_ w: WorkoutPlan, day: Int) -> [(time: Int64, bpm: Int64)] {
        var r = rng(.workoutHeartRate, day)
        var samples: [(time: Int64, bpm: Int64)] = []
        samples.reserveCapacity(Int((w.end - w.start) / 5) + 1)
        var t = w.start + r.int64(2, 9)
        var bpm = 80.0
        while t < w.end {
            let ramp = min(1.0, Double(t - w.start) / 360)
            let goal = w.isPaused(t) ? 100.0 : 78 + (w.targetBPM - 78) * ramp
            bpm += (goal - bpm) * 0.3 + r.normal(0, 2.2)
            samples.append((t, Int64(max(60, min(195, bpm.rounded())))))
            t += r.int64(4, 8)
        }
        return samples
    }

    func bloodPressure(_ day: Int) -> BloodPressureReading? {
        var r = rng(.bloodPressure, day)
        guard r.chance(0.34) else { return nil }
        let time = night(day).wake + r.int64(900, 2700)
        let manual = r.chance(0.3)
        let systolic = r.int64(108, 138)
        let diastolic = min(r.int64(66, 90), systolic - 30)
        let created = manual ? time + r.int64(60, 7200) : time + r.int64(8, 90)
        return BloodPressureReading(
            time: time, created: created, systolic: systolic, diastolic: diastolic,
            manual: manual, noise: r.next())
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

    // MARK: record streams

    /// Appends one day's records of one type, in no particular order.
    func generate(_ stream: HealthType, plan: DayPlan, into out: inout [Rec]) {
        var r = rng(stream, plan.day)
        switch stream {
        case .bodyMass: bodyMass(plan, &r, &out)
        case .heartRate: heartRate(plan, &r, &out)
        case .oxygenSaturation: oxygenSaturation(plan, &r, &out)
        case .bloodPressureSystolic, .bloodPressureDiastolic:
            if let reading = bloodPressure(plan.day) {
                out.append(bloodPressureRecord(reading, systolic: stream == .bloodPressureSystolic))
            }
        case .respiratoryRate: respiratoryRate(plan, &r, &out)
        case .stepCount: steps(plan, &out)
        case .distanceWalkingRunning: distance(plan, &out)
        case .basalEnergyBurned: basalEnergy(plan, &r, &out)
        case .activeEnergyBurned: activeEnergy(plan, &r, &out)
        case .flightsClimbed: flights(plan, &r, &out)
        case .appleExerciseTime: exerciseTime(plan, &r, &out)
        case .restingHeartRate: restingHeartRate(plan, &r, &out)
        case .walkingHeartRateAverage: walkingHeartRate(plan, &r, &out)
        case .environmentalAudioExposure: audioExposure(plan, &r, &out)
        case .heartRateVariabilitySDNN: heartRateVariability(plan, &r, &out)
        case .sleepAnalysis: sleep(plan, &r, &out)
        case .appleStandHour: standHours(plan, &r, &out)
        case .mindfulSession: mindful(plan, &r, &out)
        }
    }

    @inline(__always)
    private func quantity(
        _ source: Source, _ unit: ExportUnit, start: Int64, end: Int64, created: Int64,
        value: Int64, scale: Int, noise: UInt64, metadata: UInt8 = 0, motion: UInt8 = 0,
        duplicate: Bool = false
    ) -> Rec {
        Rec(
            start: start, end: end, created: created, value: value, noise: noise, source: source,
            unit: unit, scale: UInt8(scale), kind: .quantity, metadata: metadata, motion: motion,
            duplicate: duplicate)
    }

    @inline(__always)
    private func category(
        _ source: Source, _ value: CategoryValue?, start: Int64, end: Int64, created: Int64,
        noise: UInt64, metadata: UInt8 = 0
    ) -> Rec {
        Rec(
            start: start, end: end, created: created, value: value?.rawValue ?? 0, noise: noise,
            source: source, unit: .none, scale: 0, kind: value == nil ? .absent : .category,
            metadata: metadata, motion: 0, duplicate: false)
    }

    /// About one record in 5,000 overall (1 in 4,500 of the dense types) is exported twice.
    @inline(__always)
    private static func isDuplicate(_ noise: UInt64) -> Bool { (noise >> 17) % 4500 == 0 }

    @inline(__always)
    private static func mantissa(_ value: Double, scale: Int) -> Int64 {
        Int64((value * Double(ByteWriter.powersOfTen[scale])).rounded())
    }

    private func bodyMass(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        guard CivilTime.weekday(days: p.day) == 1, r.chance(0.9) else { return }
        let t = p.wake + r.int64(300, 1800)
        let pounds = 171 + 4 * sinApprox(Double(p.day) / 58.1) + r.normal(0, 0.6)
        let manual = r.chance(0.15)
        let created = manual ? t + r.int64(60, 4000) : t + r.int64(20, 300)
        out.append(
            quantity(
                manual ? .health : .healthMate, .pound, start: t, end: t, created: created,
                value: Self.mantissa(pounds, scale: manual ? 1 : 2), scale: manual ? 1 : 2,
                noise: r.next(), metadata: manual ? Meta.userEnteredYes : Meta.userEnteredNo))
    }

    private func heartRate(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        // Asleep: every 8–14 minutes.
        var t = p.sleepStart + r.int64(120, 600)
        while t < p.wake {
            let noise = r.next()
            let context: UInt8 = r.chance(0.85) ? 1 : 0
            out.append(
                quantity(
                    .watch, .countPerMinute, start: t, end: t, created: t + r.int64(5, 400),
                    value: r.int64(48, 62), scale: 0, noise: noise, metadata: Meta.motionContext,
                    motion: context, duplicate: Self.isDuplicate(noise)))
            t += heartRateGap(r.int64(480, 840))
        }
        // Awake: every 2.5–7.5 minutes, dense during a workout.
        t = p.wake + r.int64(30, 300)
        while t < p.bedNext {
            if let w = p.workout, t >= w.start - 30, t < w.end + 30 {
                t = w.end + r.int64(60, 300)
                continue
            }
            let noise = r.next()
            let roll = r.unit()
            let context: UInt8 = roll < 0.75 ? 1 : (roll < 0.87 ? 2 : 0)
            let bpm = Int64(max(55, min(125, r.normal(74 * p.activity.squareRoot(), 8))))
            let metadata = r.chance(0.9) ? Meta.motionContext : 0
            out.append(
                quantity(
                    .watch, .countPerMinute, start: t, end: t, created: t + r.int64(5, 400),
                    value: bpm, scale: 0, noise: noise, metadata: metadata, motion: context,
                    duplicate: Self.isDuplicate(noise)))
            t += heartRateGap(r.int64(150, 450))
        }
        if let w = p.workout {
            for sample in workoutHeartRates(w, day: p.day) {
                let noise = r.next()
                out.append(
                    quantity(
                        .watch, .countPerMinute, start: sample.time, end: sample.time,
                        created: w.created + r.int64(0, 30), value: sample.bpm, scale: 0,
                        noise: noise, duplicate: Self.isDuplicate(noise)))
            }
        }
    }

    /// The gap to the next background heart-rate sample at the model's density: at least a second.
    @inline(__always)
    private func heartRateGap(_ natural: Int64) -> Int64 {
        heartRateDensity == 1 ? natural : max(1, Int64((Double(natural) / heartRateDensity).rounded()))
    }

    private func oxygenSaturation(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        let n = r.int(4, 10)
        let length = Double(p.wake - p.sleepStart)
        for i in 0..<n {
            let t = p.sleepStart + Int64(length * (Double(i) + r.uniform(0.1, 0.9)) / Double(n))
            let percent = max(91, min(100, 100 - abs(r.normal(2.5, 1.6))))
            let noise = r.next()
            out.append(
                quantity(
                    .watch, .percent, start: t, end: t, created: t + r.int64(20, 900),
                    value: Int64(percent.rounded()), scale: 2, noise: noise,
                    duplicate: Self.isDuplicate(noise)))
        }
    }

    func bloodPressureRecord(_ b: BloodPressureReading, systolic: Bool) -> Rec {
        quantity(
            b.manual ? .health : .healthMate, .millimetreOfMercury, start: b.time, end: b.time,
            created: b.created, value: systolic ? b.systolic : b.diastolic, scale: 0,
            noise: systolic ? b.noise : SplitMix64.mix(b.noise),
            metadata: b.manual ? Meta.userEnteredYes : Meta.userEnteredNo)
    }

    private func respiratoryRate(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        let n = r.int(8, 15)
        let length = Double(p.wake - p.sleepStart - 600)
        for i in 0..<n {
            let t = p.sleepStart + Int64(length * (Double(i) + r.uniform(0, 0.8)) / Double(n))
            let end = t + r.int64(30, 300)
            let noise = r.next()
            out.append(
                quantity(
                    .watch, .countPerMinute, start: t, end: end, created: end + r.int64(60, 1800),
                    value: r.int64(120, 185), scale: 1, noise: noise,
                    duplicate: Self.isDuplicate(noise)))
        }
    }

    /// Walking bouts seen by one device; the watch and the phone overlap most of the day.
    func movement(_ source: Source, plan p: DayPlan) -> [Move] {
        var r = rng(source == .watch ? .moveWatch : .movePhone, p.day)
        var moves: [Move] = []
        let gapLow: Int64 = source == .watch ? 120 : 300
        let gapHigh: Int64 = source == .watch ? 2400 : 3600
        var t = p.wake + r.int64(60, 900)
        while t < p.bedNext - 300 {
            let length = r.int64(source == .watch ? 60 : 30, source == .watch ? 600 : 900)
            if let w = p.workout, w.overlaps(t - 60, t + length) {
                if source == .watch || w.phoneCarried {
                    var u = w.start
                    let perSecond = Double(w.steps) / Double(w.end - w.start)
                    let stride = w.metres / Double(max(1, w.steps))
                    while u < w.end {
                        let v = min(w.end, u + r.int64(150, 360))
                        let steps = Int64(perSecond * Double(v - u) * r.uniform(0.9, 1.1))
                        moves.append(
                            Move(start: u, end: v, steps: max(1, steps), stride: stride, noise: r.next()))
                        u = v
                    }
                }
                t = w.end + r.int64(60, 900)
                continue
            }
            let rate = r.uniform(0.25, 1.7)
            moves.append(
                Move(
                    start: t, end: t + length, steps: max(1, Int64(Double(length) * rate)),
                    stride: r.uniform(0.70, 0.80), noise: r.next()))
            t += length + Int64(Double(r.int64(gapLow, gapHigh)) / p.activity)
        }
        return moves
    }

    private func steps(_ p: DayPlan, _ out: inout [Rec]) {
        for source in [Source.watch, .phone] {
            for m in movement(source, plan: p) {
                out.append(
                    quantity(
                        source, .count, start: m.start, end: m.end,
                        created: m.end + Int64(m.noise % 700) + 5, value: m.steps, scale: 0,
                        noise: m.noise, duplicate: Self.isDuplicate(m.noise)))
            }
        }
    }

    private func distance(_ p: DayPlan, _ out: inout [Rec]) {
        for source in [Source.watch, .phone] {
            let unit = distanceUnit(source)
            let metresPerUnit = unit == .mile ? 1609.344 : 1000
            for m in movement(source, plan: p) {
                let noise = SplitMix64.mix(m.noise)
                let value = Double(m.steps) * m.stride / metresPerUnit
                out.append(
                    quantity(
                        source, unit, start: m.start, end: m.end,
                        created: m.end + Int64(m.noise % 700) + 5,
                        value: Self.mantissa(value, scale: 5), scale: 5, noise: noise,
                        duplicate: Self.isDuplicate(noise)))
            }
        }
    }

    private func energy(
        _ source: Source, day: Int, kilocalories: Double, start: Int64, end: Int64,
        created: Int64, noise: UInt64
    ) -> Rec {
        let unit = energyUnit(source, day: day)
        let value = unit == .kilojoule ? kilocalories * 4.184 : kilocalories
        return quantity(
            source, unit, start: start, end: end, created: created,
            value: Self.mantissa(value, scale: 3), scale: 3, noise: noise,
            duplicate: Self.isDuplicate(noise))
    }

    private func basalEnergy(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        var t = CivilTime.instant(day: p.day, second: 0)
        let dayEnd = CivilTime.instant(day: p.day + 1, second: 0)
        while t < dayEnd {
            let end = min(dayEnd, t + r.int64(600, 1200))
            let kcal = r.uniform(1.02, 1.18) * Double(end - t) / 60
            out.append(
                energy(
                    .watch, day: p.day, kilocalories: kcal, start: t, end: end,
                    created: end + r.int64(5, 600), noise: r.next()))
            t = end
        }
    }

    private func activeEnergy(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        // The watch: back-to-back intervals through the waking day.
        var t = p.wake + r.int64(0, 300)
        while t < p.bedNext {
            let end = t + r.int64(180, 480)
            let middle = (t + end) / 2
            let perMinute: Double
            if let w = p.workout, w.contains(middle), !w.isPaused(middle) {
                perMinute = w.activeKilocalories / (Double(w.activeSeconds) / 60) * r.uniform(0.85, 1.15)
            } else {
                perMinute = r.uniform(0.12, 1.5) * p.activity
            }
            out.append(
                energy(
                    .watch, day: p.day, kilocalories: perMinute * Double(end - t) / 60, start: t,
                    end: end, created: end + r.int64(5, 600), noise: r.next()))
            t = end
        }
        // The phone: scattered estimates that overlap the watch's.
        t = p.wake + r.int64(300, 1800)
        while t < p.bedNext - 600 {
            let end = t + r.int64(120, 900)
            if let w = p.workout, w.overlaps(t, end), !w.phoneCarried {
                t = w.end + r.int64(300, 900)
                continue
            }
            let kcal = r.uniform(0.3, 1.5) * Double(end - t) / 60
            out.append(
                energy(
                    .phone, day: p.day, kilocalories: kcal, start: t, end: end,
                    created: end + r.int64(5, 900), noise: r.next()))
            t = end + r.int64(600, 3600)
        }
    }

    private func flights(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        let n = r.int(2, 10)
        for _ in 0..<n {
            let t = r.int64(p.wake + 600, p.bedNext - 1200)
            let end = t + r.int64(15, 90)
            let noise = r.next()
            out.append(
                quantity(
                    .phone, .count, start: t, end: end, created: end + r.int64(5, 900),
                    value: r.int64(1, 3), scale: 0, noise: noise, duplicate: Self.isDuplicate(noise)))
        }
    }

    private func exerciseTime(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        func minute(_ t: Int64) {
            out.append(
                quantity(
                    .watch, .minute, start: t, end: t + 60, created: t + 60 + r.int64(1, 120),
                    value: 1, scale: 0, noise: r.next()))
        }
        if let w = p.workout {
            var t = (w.start / 60 + 1) * 60
            while t + 60 <= w.end {
                if !w.isPaused(t) { minute(t) }
                t += 60
            }
        }
        // Brisk walks: a few runs of exercise minutes, never two records for the same minute.
        let clusters = r.int(0, 3)
        var taken: [(Int64, Int64)] = []
        for _ in 0..<clusters {
            let start = r.int64(p.wake + 1800, p.bedNext - 3600) / 60 * 60
            let end = start + Int64(r.int(1, 8)) * 60
            if let w = p.workout, w.overlaps(start - 60, end + 60) { continue }
            if taken.contains(where: { start < $0.1 && end > $0.0 }) { continue }
            taken.append((start, end))
            for t in stride(from: start, to: end, by: 60) { minute(t) }
        }
    }

    private func restingHeartRate(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        let start = CivilTime.instant(day: p.day, second: r.int(30, 900))
        let end = CivilTime.instant(day: p.day, second: 86400 - r.int(60, 1800))
        out.append(
            quantity(
                .watch, .countPerMinute, start: start, end: end, created: end + r.int64(60, 3000),
                value: r.int64(51, 62), scale: 0, noise: r.next()))
    }

    private func walkingHeartRate(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        let start = p.wake + r.int64(600, 3600)
        let end = p.bedNext - r.int64(600, 3600)
        let tenths = r.chance(0.5)
        out.append(
            quantity(
                .watch, .countPerMinute, start: start, end: end, created: end + r.int64(60, 1800),
                value: tenths ? r.int64(880, 1080) : r.int64(88, 108), scale: tenths ? 1 : 0,
                noise: r.next()))
    }

    private func audioExposure(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        let n = r.int(6, 16)
        for _ in 0..<n {
            let t = r.int64(p.wake, p.bedNext - 1800)
            let end = t + r.int64(600, 1800)
            let noise = r.next()
            out.append(
                quantity(
                    .watch, .decibelSPL, start: t, end: end, created: end + r.int64(30, 1800),
                    value: r.int64(450_000, 820_000), scale: 4, noise: noise,
                    duplicate: Self.isDuplicate(noise)))
        }
    }

    private func heartRateVariability(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        let n = r.int(2, 5)
        let length = Double(p.wake - p.sleepStart)
        var times: [Int64] = (0..<n).map {
            p.sleepStart + Int64(length * (Double($0) + r.uniform(0.2, 0.8)) / Double(n))
        }
        if r.chance(0.35) { times.append(r.int64(p.wake + 3600, p.bedNext - 3600)) }
        for t in times {
            let end = t + r.int64(55, 66)
            out.append(
                quantity(
                    .watch, .millisecond, start: t, end: end, created: end + r.int64(10, 600),
                    value: r.int64(150_000, 950_000), scale: 4, noise: r.next(),
                    metadata: Meta.beats))
        }
    }

    private func sleep(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        // The watch: in bed, then stages in ~90-minute cycles.
        let inBedStart = p.sleepStart - r.int64(0, 900)
        let inBedEnd = p.wake + r.int64(0, 600)
        let created = inBedEnd + r.int64(120, 1800)
        let tz = Meta.timeZone
        out.append(
            category(
                .watch, .inBed, start: inBedStart, end: inBedEnd, created: created,
                noise: r.next(), metadata: tz))
        var t = p.sleepStart + r.int64(180, 1200)
        var cycle = 0
        while t < p.wake - 120 {
            let stages: [(CategoryValue, Int64)] = [
                (.asleepCore, r.int64(10, 30)),
                (.asleepDeep, cycle < 3 ? r.int64(10, 35) : r.int64(0, 10)),
                (.asleepCore, r.int64(5, 20)),
                (.asleepREM, cycle < 2 ? r.int64(5, 15) : r.int64(15, 35)),
                (.awake, r.chance(0.3) ? r.int64(1, 6) : 0),
            ]
            for (stage, minutes) in stages where minutes > 0 && t < p.wake - 60 {
                let end = min(p.wake, t + minutes * 60 + r.int64(-20, 20))
                out.append(
                    category(
                        .watch, stage, start: t, end: end, created: created, noise: r.next(),
                        metadata: tz))
                t = end
            }
            cycle += 1
        }
        // AutoSleep: its own in-bed and asleep spans over the same night.
        let autoCreated = p.wake + r.int64(600, 7200)
        out.append(
            category(
                .autoSleep, .inBed, start: p.sleepStart - r.int64(0, 1500),
                end: p.wake + r.int64(0, 1200), created: autoCreated, noise: r.next(), metadata: tz))
        out.append(
            category(
                .autoSleep, .asleepUnspecified, start: p.sleepStart + r.int64(300, 1800),
                end: p.wake - r.int64(0, 600), created: autoCreated, noise: r.next()))
    }

    private func standHours(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        let wake = CivilTime.localWallClock(p.wake)
        let bed = CivilTime.localWallClock(p.bedNext)
        let firstHour = wake.second / 3600
        let lastHour = bed.day > p.day ? 24 : bed.second / 3600
        guard firstHour < lastHour else { return }
        for hour in firstHour..<lastHour {
            let start = CivilTime.instant(day: p.day, second: hour * 3600)
            let end = CivilTime.instant(day: p.day, second: hour * 3600 + 3600)
            let exercised = p.workout?.overlaps(start, end) ?? false
            let stood = exercised || r.chance(0.72)
            out.append(
                category(
                    .watch, stood ? .standHourStood : .standHourIdle, start: start, end: end,
                    created: end + r.int64(30, 900), noise: r.next()))
        }
    }

    private func mindful(_ p: DayPlan, _ r: inout SplitMix64, _ out: inout [Rec]) {
        guard r.chance(0.18) else { return }
        let t = r.int64(p.wake + 600, p.bedNext - 1200)
        let end = t + r.int64(60, 600)
        out.append(
            category(
                .watch, r.chance(0.5) ? nil : .notApplicable, start: t, end: end,
                created: end + r.int64(1, 30), noise: r.next()))
    }
}

/// A sine good to about 1e-4 (range reduction and a short series): enough for a weight trend or
/// a route's loop, and the same on every platform.
func sinApprox(_ x: Double) -> Double {
    let twoPi = 6.283_185_307_179_586
    var y = x - twoPi * (x / twoPi).rounded(.down)
    if y > 3.141_592_653_589_793 { y -= twoPi }
    let y2 = y * y
    return y * (1 - y2 / 6 * (1 - y2 / 20 * (1 - y2 / 42 * (1 - y2 / 72 * (1 - y2 / 110)))))
}
