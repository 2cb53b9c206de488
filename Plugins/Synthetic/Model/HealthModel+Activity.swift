/// Moving about: walking bouts (steps and distance), energy, flights, exercise minutes, standing.
extension HealthModel {
    /// Walking bouts seen by one device; the watch and the phone overlap most of the day.
    func movement(_ source: Source, plan: DayPlan) -> [WalkingBout] {
        var random = generator(source == .watch ? .moveWatch : .movePhone, day: plan.day)
        var bouts: [WalkingBout] = []
        let gapLow: Int64 = source == .watch ? 120 : 300
        let gapHigh: Int64 = source == .watch ? 2400 : 3600
        var time = plan.wake + random.int64(60, 900)
        while time < plan.bedNext - 300 {
            let length = random.int64(source == .watch ? 60 : 30, source == .watch ? 600 : 900)
            if let workout = plan.workout, workout.overlaps(time - 60, time + length) {
                if source == .watch || workout.phoneCarried {
                    var boutStart = workout.start
                    let perSecond = Double(workout.steps) / Double(workout.end - workout.start)
                    let strideMetres = workout.metres / Double(max(1, workout.steps))
                    while boutStart < workout.end {
                        let boutEnd = min(workout.end, boutStart + random.int64(150, 360))
                        let steps = Int64(perSecond * Double(boutEnd - boutStart) * random.uniform(0.9, 1.1))
                        bouts.append(
                            WalkingBout(
                                start: boutStart, end: boutEnd, steps: max(1, steps),
                                strideMetres: strideMetres,
                                noise: random.next()))
                        boutStart = boutEnd
                    }
                }
                time = workout.end + random.int64(60, 900)
                continue
            }
            let rate = random.uniform(0.25, 1.7)
            bouts.append(
                WalkingBout(
                    start: time, end: time + length, steps: max(1, Int64(Double(length) * rate)),
                    strideMetres: random.uniform(0.70, 0.80), noise: random.next()))
            time += length + Int64(Double(random.int64(gapLow, gapHigh)) / plan.activity)
        }
        return bouts
    }

    func steps(_ plan: DayPlan, _ records: inout [SimulatedRecord]) {
        for source in [Source.watch, .phone] {
            for bout in movement(source, plan: plan) {
                records.append(
                    quantity(
                        source, .count, start: bout.start, end: bout.end,
                        created: bout.end + Int64(bout.noise % 700) + 5, value: bout.steps, scale: 0,
                        noise: bout.noise, duplicate: Self.isDuplicate(bout.noise)))
            }
        }
    }

    func distance(_ plan: DayPlan, _ records: inout [SimulatedRecord]) {
        for source in [Source.watch, .phone] {
            let unit = distanceUnit(source)
            let metresPerUnit = unit == .mile ? 1609.344 : 1000
            for bout in movement(source, plan: plan) {
                let noise = SplitMix64.mix(bout.noise)
                let value = Double(bout.steps) * bout.strideMetres / metresPerUnit
                records.append(
                    quantity(
                        source, unit, start: bout.start, end: bout.end,
                        created: bout.end + Int64(bout.noise % 700) + 5,
                        value: Self.mantissa(value, scale: 5), scale: 5, noise: noise,
                        duplicate: Self.isDuplicate(noise)))
            }
        }
    }

    private func energy(
        _ source: Source, day: Int, kilocalories: Double, start: Int64, end: Int64,
        created: Int64, noise: UInt64
    ) -> SimulatedRecord {
        let unit = energyUnit(source, day: day)
        let value = unit == .kilojoule ? kilocalories * 4.184 : kilocalories
        return quantity(
            source, unit, start: start, end: end, created: created,
            value: Self.mantissa(value, scale: 3), scale: 3, noise: noise,
            duplicate: Self.isDuplicate(noise))
    }

    func basalEnergy(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        var time = CivilTime.instant(day: plan.day, second: 0)
        let dayEnd = CivilTime.instant(day: plan.day + 1, second: 0)
        while time < dayEnd {
            let end = min(dayEnd, time + random.int64(600, 1200))
            let kilocalories = random.uniform(1.02, 1.18) * Double(end - time) / 60
            records.append(
                energy(
                    .watch, day: plan.day, kilocalories: kilocalories, start: time, end: end,
                    created: end + random.int64(5, 600), noise: random.next()))
            time = end
        }
    }

    func activeEnergy(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        // The watch: back-to-back intervals through the waking day.
        var time = plan.wake + random.int64(0, 300)
        while time < plan.bedNext {
            let end = time + random.int64(180, 480)
            let middle = (time + end) / 2
            let perMinute: Double
            if let workout = plan.workout, workout.contains(middle), !workout.isPaused(middle) {
                perMinute =
                    workout.activeKilocalories / (Double(workout.activeSeconds) / 60)
                    * random.uniform(0.85, 1.15)
            } else {
                perMinute = random.uniform(0.12, 1.5) * plan.activity
            }
            records.append(
                energy(
                    .watch, day: plan.day, kilocalories: perMinute * Double(end - time) / 60, start: time,
                    end: end, created: end + random.int64(5, 600), noise: random.next()))
            time = end
        }
        // The phone: scattered estimates that overlap the watch's.
        time = plan.wake + random.int64(300, 1800)
        while time < plan.bedNext - 600 {
            let end = time + random.int64(120, 900)
            if let workout = plan.workout, workout.overlaps(time, end), !workout.phoneCarried {
                time = workout.end + random.int64(300, 900)
                continue
            }
            let kilocalories = random.uniform(0.3, 1.5) * Double(end - time) / 60
            records.append(
                energy(
                    .phone, day: plan.day, kilocalories: kilocalories, start: time, end: end,
                    created: end + random.int64(5, 900), noise: random.next()))
            time = end + random.int64(600, 3600)
        }
    }

    func flights(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        let count = random.int(2, 10)
        for _ in 0..<count {
            let time = random.int64(plan.wake + 600, plan.bedNext - 1200)
            let end = time + random.int64(15, 90)
            let noise = random.next()
            records.append(
                quantity(
                    .phone, .count, start: time, end: end, created: end + random.int64(5, 900),
                    value: random.int64(1, 3), scale: 0, noise: noise, duplicate: Self.isDuplicate(noise)))
        }
    }

    func exerciseTime(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        func minute(_ time: Int64) {
            records.append(
                quantity(
                    .watch, .minute, start: time, end: time + 60, created: time + 60 + random.int64(1, 120),
                    value: 1, scale: 0, noise: random.next()))
        }
        if let workout = plan.workout {
            var time = (workout.start / 60 + 1) * 60
            while time + 60 <= workout.end {
                if !workout.isPaused(time) { minute(time) }
                time += 60
            }
        }
        // Brisk walks: a few runs of exercise minutes, never two records for the same minute.
        let clusters = random.int(0, 3)
        var taken: [(start: Int64, end: Int64)] = []
        for _ in 0..<clusters {
            let start = random.int64(plan.wake + 1800, plan.bedNext - 3600) / 60 * 60
            let end = start + Int64(random.int(1, 8)) * 60
            if let workout = plan.workout, workout.overlaps(start - 60, end + 60) { continue }
            if taken.contains(where: { start < $0.end && end > $0.start }) { continue }
            taken.append((start, end))
            for time in stride(from: start, to: end, by: 60) { minute(time) }
        }
    }

    func standHours(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        let wake = CivilTime.localWallClock(plan.wake)
        let bed = CivilTime.localWallClock(plan.bedNext)
        let firstHour = wake.second / 3600
        let lastHour = bed.day > plan.day ? 24 : bed.second / 3600
        guard firstHour < lastHour else { return }
        for hour in firstHour..<lastHour {
            let start = CivilTime.instant(day: plan.day, second: hour * 3600)
            let end = CivilTime.instant(day: plan.day, second: hour * 3600 + 3600)
            let exercised = plan.workout?.overlaps(start, end) ?? false
            let stood = exercised || random.chance(0.72)
            records.append(
                category(
                    .watch, stood ? .standHourStood : .standHourIdle, start: start, end: end,
                    created: end + random.int64(30, 900), noise: random.next()))
        }
    }
}
