/// One day's workout, as planned from the seed: when, how far, how hard. Times are seconds since
/// the epoch.
struct WorkoutPlan {
    let running: Bool
    let start: Int64
    let end: Int64
    let pauses: [WorkoutPause]
    let activeSeconds: Int64
    let metres: Double
    let activeKilocalories: Double
    let basalKilocalories: Double
    let steps: Int
    let phoneCarried: Bool
    let temperatureFahrenheit: Int
    let humidityHundredths: Int
    let elevationCentimetres: Int
    /// The workout's UUID (its route's sync identifier), which also seeds the route and picks the
    /// device.
    let uuidHigh: UInt64
    let uuidLow: UInt64
    let targetBPM: Double
    let created: Int64
    /// Noise for the last digits of the exported duration.
    let durationFraction: Int64

    func overlaps(_ from: Int64, _ to: Int64) -> Bool { from < end && to > start }
    func contains(_ time: Int64) -> Bool { time >= start && time < end }
    func isPaused(_ time: Int64) -> Bool { pauses.contains { time >= $0.pausedAt && time < $0.resumedAt } }
}
