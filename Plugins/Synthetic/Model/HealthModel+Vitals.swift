/// Measurements of the body: weight, heart, blood oxygen and pressure, breathing, sound exposure.
extension HealthModel {
    func bodyMass(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        guard CivilTime.weekday(days: plan.day) == 1, random.chance(0.9) else { return }
        let time = plan.wake + random.int64(300, 1800)
        let pounds = 171 + 4 * sinApprox(Double(plan.day) / 58.1) + random.normal(0, 0.6)
        let manual = random.chance(0.15)
        let created = manual ? time + random.int64(60, 4000) : time + random.int64(20, 300)
        records.append(
            quantity(
                manual ? .health : .healthMate, .pound, start: time, end: time, created: created,
                value: Self.mantissa(pounds, scale: manual ? 1 : 2), scale: manual ? 1 : 2,
                noise: random.next(), metadata: manual ? .userEnteredYes : .userEnteredNo))
    }

    func heartRate(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        // Asleep: every 8–14 minutes.
        var time = plan.sleepStart + random.int64(120, 600)
        while time < plan.wake {
            let noise = random.next()
            let context: UInt8 = random.chance(0.85) ? 1 : 0
            records.append(
                quantity(
                    .watch, .countPerMinute, start: time, end: time, created: time + random.int64(5, 400),
                    value: random.int64(48, 62), scale: 0, noise: noise, metadata: .motionContext,
                    motionContext: context, duplicate: Self.isDuplicate(noise)))
            time += heartRateGap(random.int64(480, 840))
        }
        // Awake: every 2.5–7.5 minutes, dense during a workout.
        time = plan.wake + random.int64(30, 300)
        while time < plan.bedNext {
            if let workout = plan.workout, time >= workout.start - 30, time < workout.end + 30 {
                time = workout.end + random.int64(60, 300)
                continue
            }
            let noise = random.next()
            let roll = random.unit()
            let context: UInt8 = roll < 0.75 ? 1 : (roll < 0.87 ? 2 : 0)
            let bpm = Int64(max(55, min(125, random.normal(74 * plan.activity.squareRoot(), 8))))
            let metadata: RecordMetadata = random.chance(0.9) ? .motionContext : []
            records.append(
                quantity(
                    .watch, .countPerMinute, start: time, end: time, created: time + random.int64(5, 400),
                    value: bpm, scale: 0, noise: noise, metadata: metadata, motionContext: context,
                    duplicate: Self.isDuplicate(noise)))
            time += heartRateGap(random.int64(150, 450))
        }
        if let workout = plan.workout {
            for sample in workoutHeartRates(workout, day: plan.day) {
                let noise = random.next()
                records.append(
                    quantity(
                        .watch, .countPerMinute, start: sample.time, end: sample.time,
                        created: workout.created + random.int64(0, 30), value: sample.bpm, scale: 0,
                        noise: noise, duplicate: Self.isDuplicate(noise)))
            }
        }
    }

    /// The gap to the next background heart-rate sample at the model's density: at least a second.
    @inline(__always)
    private func heartRateGap(_ natural: Int64) -> Int64 {
        heartRateDensity == 1 ? natural : max(1, Int64((Double(natural) / heartRateDensity).rounded()))
    }

    func oxygenSaturation(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        let count = random.int(4, 10)
        let length = Double(plan.wake - plan.sleepStart)
        for index in 0..<count {
            let time =
                plan.sleepStart + Int64(length * (Double(index) + random.uniform(0.1, 0.9)) / Double(count))
            let percent = max(91, min(100, 100 - abs(random.normal(2.5, 1.6))))
            let noise = random.next()
            records.append(
                quantity(
                    .watch, .percent, start: time, end: time, created: time + random.int64(20, 900),
                    value: Int64(percent.rounded()), scale: 2, noise: noise,
                    duplicate: Self.isDuplicate(noise)))
        }
    }

    func bloodPressureRecord(_ reading: BloodPressureReading, systolic: Bool) -> SimulatedRecord {
        quantity(
            reading.manual ? .health : .healthMate, .millimetreOfMercury, start: reading.time,
            end: reading.time,
            created: reading.created, value: systolic ? reading.systolic : reading.diastolic, scale: 0,
            noise: systolic ? reading.noise : SplitMix64.mix(reading.noise),
            metadata: reading.manual ? .userEnteredYes : .userEnteredNo)
    }

    func respiratoryRate(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        let count = random.int(8, 15)
        let length = Double(plan.wake - plan.sleepStart - 600)
        for index in 0..<count {
            let time =
                plan.sleepStart + Int64(length * (Double(index) + random.uniform(0, 0.8)) / Double(count))
            let end = time + random.int64(30, 300)
            let noise = random.next()
            records.append(
                quantity(
                    .watch, .countPerMinute, start: time, end: end, created: end + random.int64(60, 1800),
                    value: random.int64(120, 185), scale: 1, noise: noise,
                    duplicate: Self.isDuplicate(noise)))
        }
    }

    func restingHeartRate(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        let start = CivilTime.instant(day: plan.day, second: random.int(30, 900))
        let end = CivilTime.instant(day: plan.day, second: 86400 - random.int(60, 1800))
        records.append(
            quantity(
                .watch, .countPerMinute, start: start, end: end, created: end + random.int64(60, 3000),
                value: random.int64(51, 62), scale: 0, noise: random.next()))
    }

    func walkingHeartRate(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        let start = plan.wake + random.int64(600, 3600)
        let end = plan.bedNext - random.int64(600, 3600)
        let tenths = random.chance(0.5)
        records.append(
            quantity(
                .watch, .countPerMinute, start: start, end: end, created: end + random.int64(60, 1800),
                value: tenths ? random.int64(880, 1080) : random.int64(88, 108), scale: tenths ? 1 : 0,
                noise: random.next()))
    }

    func audioExposure(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        let count = random.int(6, 16)
        for _ in 0..<count {
            let time = random.int64(plan.wake, plan.bedNext - 1800)
            let end = time + random.int64(600, 1800)
            let noise = random.next()
            records.append(
                quantity(
                    .watch, .decibelSPL, start: time, end: end, created: end + random.int64(30, 1800),
                    value: random.int64(450_000, 820_000), scale: 4, noise: noise,
                    duplicate: Self.isDuplicate(noise)))
        }
    }

    func heartRateVariability(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        let count = random.int(2, 5)
        let length = Double(plan.wake - plan.sleepStart)
        var times: [Int64] = (0..<count).map {
            plan.sleepStart + Int64(length * (Double($0) + random.uniform(0.2, 0.8)) / Double(count))
        }
        if random.chance(0.35) { times.append(random.int64(plan.wake + 3600, plan.bedNext - 3600)) }
        for time in times {
            let end = time + random.int64(55, 66)
            records.append(
                quantity(
                    .watch, .millisecond, start: time, end: end, created: end + random.int64(10, 600),
                    value: random.int64(150_000, 950_000), scale: 4, noise: random.next(),
                    metadata: .beats))
        }
    }
}
