/// The course and the body of one activity, second by second: a wandering path from a start
/// near Portland, rolling hills, speed with a slow swell, a heart rate that warms up to its
/// target, beats drawn from it, and calories from heart rate (Keytel et al., 2005).
struct FITActivityRun {
    /// Centimetres between distance-triggered laps.
    let lapLength: Int64
    /// The last second's sample.
    private(set) var current = FITActivitySample()
    /// Beat intervals so far, and their sum (ms).
    private(set) var beatCount = 0
    private(set) var beatMilliseconds = 0

    private var random: SplitMix64
    private let isRide: Bool
    private let baseSpeed: Double
    private let targetHeartRate: Double
    private let phase: Double
    private var latitude: Double
    private var longitude: Double
    private var heading: Double
    private var metres = 0.0
    private var kilocalories = 0.0
    private var ascentFifths: Int64 = 0
    private var descentFifths: Int64 = 0
    /// Milliseconds from the start to the last beat, and the interval to the next.
    private var lastBeat: Int64
    private var nextInterval: Int64

    private static let metresPerDegree = 111_320.0
    private static let semicirclesPerDegree = 2_147_483_648.0 / 180

    init(plan: FITActivityPlan) {
        random = SplitMix64(state: plan.seed)
        isRide = plan.sport == .ride
        lapLength = isRide ? 500_000 : 100_000
        baseSpeed = isRide ? random.uniform(6.5, 8.0) : random.uniform(2.7, 3.3)
        targetHeartRate = isRide ? random.uniform(130, 142) : random.uniform(146, 158)
        phase = random.uniform(0, 6.28)
        latitude = 45.5152 + random.uniform(-0.02, 0.02)
        longitude = -122.6784 + random.uniform(-0.02, 0.02)
        heading = random.uniform(0, 6.28)
        lastBeat = Int64(random.int(0, 600))
        nextInterval = 650
    }

    /// Moves on to `second` (0 is the start, where nothing has moved yet).
    mutating func advance(to second: Int) -> FITActivitySample {
        let time = Double(second)
        let warmUp = min(1, time / 240)
        let heartRate =
            92 + (targetHeartRate - 92) * warmUp + 5 * sinApprox(time / 300 + phase)
            + random.normal(0, 1.5)
        var speed = 0.0
        if second > 0 {
            speed =
                baseSpeed * min(1, 0.3 + time / 30) * (1 + 0.06 * sinApprox(time / 90 + phase))
                + random.normal(0, 0.05)
            metres += speed
            heading += random.normal(0, 0.015)
            latitude += speed * cosApprox(heading) / Self.metresPerDegree
            longitude += speed * sinApprox(heading) / (Self.metresPerDegree * cosApprox(latitude / 57.295_779_5))
            // Keytel's estimate for a 38-year-old man of 75 kg, in kcal per minute.
            let perMinute = (-55.0969 + 0.6309 * heartRate + 0.1988 * 75 + 0.2017 * 38) / 4.184
            kilocalories += max(0, perMinute) / 60
        }
        let altitude = 60 + 18 * sinApprox(metres / 900 + phase) + 6 * sinApprox(metres / 210 + 2 * phase)
        let altitudeRaw = Int64(((altitude + 500) * 5).rounded())
        if second > 0 {
            let climb = altitudeRaw - current.altitude
            if climb > 0 { ascentFifths += climb } else { descentFifths -= climb }
        }

        var sample = FITActivitySample()
        sample.latitude = Int64((latitude * Self.semicirclesPerDegree).rounded())
        sample.longitude = Int64((longitude * Self.semicirclesPerDegree).rounded())
        sample.distance = Int64((metres * 100).rounded())
        sample.speed = Int64((max(0, speed) * 1000).rounded())
        sample.altitude = altitudeRaw
        sample.heartRate = min(200, max(60, Int(heartRate.rounded())))
        sample.cadence = Int64(isRide ? random.int(85, 95) : random.int(84, 90))
        sample.power = isRide ? Int64(max(0, 205 + 35 * sinApprox(time / 75 + phase) + random.normal(0, 12))) : nil
        sample.calories = Int(kilocalories)
        sample.ascent = Int(ascentFifths / 5)
        sample.descent = Int(descentFifths / 5)
        sample.beats = beats(until: Int64(second) * 1000, heartRate: Double(sample.heartRate))
        current = sample
        return sample
    }

    /// The intervals of the beats up to `milliseconds`, each drawn from the heart rate at its start.
    private mutating func beats(until milliseconds: Int64, heartRate: Double) -> [Int64] {
        var intervals: [Int64] = []
        while lastBeat + nextInterval <= milliseconds {
            lastBeat += nextInterval
            intervals.append(nextInterval)
            beatCount += 1
            beatMilliseconds += Int(nextInterval)
            nextInterval = Int64((60_000 / heartRate * (1 + random.normal(0, 0.025))).rounded())
        }
        return intervals
    }
}
