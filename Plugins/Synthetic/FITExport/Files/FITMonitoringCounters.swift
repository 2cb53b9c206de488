/// One activity type's counters since local midnight, as monitoring messages carry them:
/// cycles (steps for walking and running, twice the pedal strokes for cycling), distance,
/// active time and active calories.
struct FITMonitoringCounters {
    private(set) var cycles: Int64 = 0
    private(set) var centimetres: Int64 = 0
    private(set) var activeMilliseconds: Int64 = 0
    private(set) var kilocalories = 0.0

    /// Adds one active minute of `kind` (an activity_type).
    mutating func addMinute(_ kind: Int64, _ random: inout SplitMix64) {
        activeMilliseconds += 60_000
        switch kind {
        case FITProfile.ActivityType.running:
            let steps = Int64(random.int(150, 172))
            cycles += steps
            centimetres += steps * 115
            kilocalories += random.uniform(12, 14)
        case FITProfile.ActivityType.cycling:
            // cycles has scale 2: the raw value counts half strokes.
            cycles += 2 * Int64(random.int(80, 92))
            centimetres += Int64(random.int(36_000, 48_000))
            kilocalories += random.uniform(9, 11)
        default:
            let steps = Int64(random.int(85, 115))
            cycles += steps
            centimetres += steps * 78
            kilocalories += random.uniform(4, 5)
        }
    }
}
