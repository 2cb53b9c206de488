/// The loop in Golden Gate Park that every simulated outdoor workout goes round: where the
/// person is after a distance, for GPX route files and live routes alike.
struct WorkoutLoop {
    private static let centreLatitude = 37.7694
    private static let centreLongitude = -122.4862
    private static let metresPerDegreeLatitude = 111_320.0
    private static let metresPerDegreeLongitude = 111_320.0 * 0.790_8

    let radius: Double
    /// Metres per second of moving time.
    let speed: Double

    /// Draws the loop's radius from `random`, the workout's own generator.
    init(_ plan: WorkoutPlan, random: inout SplitMix64) {
        radius = random.uniform(500, 900)
        speed = plan.metres / Double(max(1, plan.activeSeconds))
    }

    /// The angle round the loop after `travelled` metres.
    func angle(after travelled: Double) -> Double { travelled / radius }

    func latitude(at angle: Double) -> Double {
        Self.centreLatitude + radius * cosApprox(angle) / Self.metresPerDegreeLatitude
    }

    func longitude(at angle: Double) -> Double {
        Self.centreLongitude + radius * sinApprox(angle) / Self.metresPerDegreeLongitude
    }

    func elevation(at angle: Double) -> Double { 22 + 14 * sinApprox(angle * 2) }
}
