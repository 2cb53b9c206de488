import HealthETLCore

/// A workout's route for the live stream: a loop in Golden Gate Park, a point a minute.
enum LiveRoute {
    static func points(_ plan: WorkoutPlan) -> [RoutePoint] {
        var g = SplitMix64(state: plan.syncHigh)
        let metresPerDegreeLatitude = 111_320.0
        let metresPerDegreeLongitude = 111_320.0 * 0.790_8
        let radius = g.uniform(500, 900)
        let speed = plan.metres / Double(max(1, plan.activeSeconds))
        var travelled = 0.0
        var points: [RoutePoint] = []
        var t = plan.start
        while t <= plan.end {
            if !plan.isPaused(t) {
                let angle = travelled / radius
                points.append(
                    RoutePoint(
                        instant: Instant(millisecondsSinceEpoch: t * 1000),
                        latitude: 37.7694 + radius * cosApprox(angle) / metresPerDegreeLatitude,
                        longitude: -122.4862 + radius * sinApprox(angle) / metresPerDegreeLongitude,
                        elevationMeters: 22 + 14 * sinApprox(angle * 2), speedMetersPerSecond: speed,
                        horizontalAccuracyMeters: g.uniform(1.2, 4.5)))
                travelled += speed * 60
            }
            t += 60
        }
        return points
    }
}
