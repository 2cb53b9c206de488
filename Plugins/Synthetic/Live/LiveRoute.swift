import HealthETLCore

/// A workout's route for the live stream: its loop (`WorkoutLoop`), a point a minute.
enum LiveRoute {
    static func points(_ plan: WorkoutPlan) -> [RoutePoint] {
        var random = SplitMix64(state: plan.uuidHigh)
        let loop = WorkoutLoop(plan, random: &random)
        var travelled = 0.0
        var points: [RoutePoint] = []
        var time = plan.start
        while time <= plan.end {
            if !plan.isPaused(time) {
                let angle = loop.angle(after: travelled)
                points.append(
                    RoutePoint(
                        instant: Instant(millisecondsSinceEpoch: time * 1000), latitude: loop.latitude(at: angle),
                        longitude: loop.longitude(at: angle), elevationMeters: loop.elevation(at: angle),
                        speedMetersPerSecond: loop.speed, horizontalAccuracyMeters: random.uniform(1.2, 4.5)))
                travelled += loop.speed * 60
            }
            time += 60
        }
        return points
    }
}
