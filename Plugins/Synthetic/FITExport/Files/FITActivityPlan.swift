/// One run or ride the watch recorded: which, when, for how long, and the seed of its course and
/// heart. The monitoring file of its day counts the same minutes as running or cycling.
struct FITActivityPlan: Sendable {
    enum Sport: Sendable {
        case run
        case ride
    }

    let sport: Sport
    /// Unix seconds of the first record.
    let start: Int64
    /// Seconds from the first record to the last.
    let duration: Int
    let seed: UInt64

    var end: Int64 { start + Int64(duration) }

    /// A run or a ride every other day, alternating, starting on the first day: local start
    /// between 07:00 and 18:00, runs of 25–45 minutes and rides of 40–70.
    static func plans(days: Range<Int>, seed: UInt64, utcOffsetSeconds: Int) -> [FITActivityPlan] {
        var plans: [FITActivityPlan] = []
        for day in days where (day - days.lowerBound) % 2 == 0 {
            var random = SplitMix64.substream(seed: seed, kind: 0x4649_5441, index: day)
            let sport: Sport = plans.count % 2 == 0 ? .run : .ride
            let localStart = Int64(day) * 86_400 + random.int64(7 * 3600, 18 * 3600)
            let duration = sport == .run ? random.int(25 * 60, 45 * 60) : random.int(40 * 60, 70 * 60)
            plans.append(
                FITActivityPlan(
                    sport: sport, start: localStart - Int64(utcOffsetSeconds), duration: duration,
                    seed: random.next()))
        }
        return plans
    }
}
