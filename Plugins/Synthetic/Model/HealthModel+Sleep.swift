/// The night's sleep, as the watch and AutoSleep each record it, and mindful minutes.
extension HealthModel {
    func sleep(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        // The watch: in bed, then stages in ~90-minute cycles.
        let inBedStart = plan.sleepStart - random.int64(0, 900)
        let inBedEnd = plan.wake + random.int64(0, 600)
        let created = inBedEnd + random.int64(120, 1800)
        records.append(
            category(
                .watch, .inBed, start: inBedStart, end: inBedEnd, created: created,
                noise: random.next(), metadata: .timeZone))
        var time = plan.sleepStart + random.int64(180, 1200)
        var cycle = 0
        while time < plan.wake - 120 {
            let stages: [(stage: CategoryValue, minutes: Int64)] = [
                (.asleepCore, random.int64(10, 30)),
                (.asleepDeep, cycle < 3 ? random.int64(10, 35) : random.int64(0, 10)),
                (.asleepCore, random.int64(5, 20)),
                (.asleepREM, cycle < 2 ? random.int64(5, 15) : random.int64(15, 35)),
                (.awake, random.chance(0.3) ? random.int64(1, 6) : 0),
            ]
            for (stage, minutes) in stages where minutes > 0 && time < plan.wake - 60 {
                let end = min(plan.wake, time + minutes * 60 + random.int64(-20, 20))
                records.append(
                    category(
                        .watch, stage, start: time, end: end, created: created, noise: random.next(),
                        metadata: .timeZone))
                time = end
            }
            cycle += 1
        }
        // AutoSleep: its own in-bed and asleep spans over the same night.
        let autoSleepCreated = plan.wake + random.int64(600, 7200)
        records.append(
            category(
                .autoSleep, .inBed, start: plan.sleepStart - random.int64(0, 1500),
                end: plan.wake + random.int64(0, 1200), created: autoSleepCreated, noise: random.next(),
                metadata: .timeZone))
        records.append(
            category(
                .autoSleep, .asleepUnspecified, start: plan.sleepStart + random.int64(300, 1800),
                end: plan.wake - random.int64(0, 600), created: autoSleepCreated, noise: random.next()))
    }

    func mindful(_ plan: DayPlan, _ random: inout SplitMix64, _ records: inout [SimulatedRecord]) {
        guard random.chance(0.18) else { return }
        let time = random.int64(plan.wake + 600, plan.bedNext - 1200)
        let end = time + random.int64(60, 600)
        records.append(
            category(
                .watch, random.chance(0.5) ? nil : .notApplicable, start: time, end: end,
                created: end + random.int64(1, 30), noise: random.next()))
    }
}
