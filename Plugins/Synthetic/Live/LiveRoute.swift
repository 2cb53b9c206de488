import HealthETLCore

/// A workout's route for the live stream: its loop (`WorkoutLoop`), a point a minute.
enum LiveRoute {
    static func points(_ plan: WorkoutPlan) -> [RoutePoint] {
        var g = SplitMix64(state: plan.syncHigh)
        let loop = WorkoutLoop(plan, random: &g)
        var travelled = 0.0
        var points: [RoutePoint] = []
        var t = plan.start
        while t <= plan.end {
            if !plan.isPaused(t) {
                let angle = loop.angle(after: travelled)
                points.append(
                    RoutePoint(
                        instant: Instant(millisecondsSinceEpoch: t * 1000), latitude: loop.latitude(at: angle),
                        longitude: loop.longitude(at: angle), elevationMeters: loop.elevation(at: angle),
                        speedMetersPerSecond: loop.speed, horizontalAccuracyMeters: g.uniform(1.2, 4.5)))
                travelled += loop.speed * 60
            }
            t += 60
        }
        return points
    }
}
