import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// A route point is stored as it came: what it lacks (a GPX point without a time or an
/// elevation) is NULL, not a value left bound from the point before it.
@Suite struct RoutePointStoreTests {
    let directory = TemporaryDirectory()

    @Test func routePointsKeepWhatTheyLackAsNull() throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")))
        let start = RecordFixtures.now.adding(seconds: -3_600)
        let route = [
            RoutePoint(
                instant: start, latitude: 50.1, longitude: 8.6, elevationMeters: 112.5, speedMetersPerSecond: 2.75,
                horizontalAccuracyMeters: 4),
            RoutePoint(instant: nil, latitude: 50.2, longitude: 8.7),
            RoutePoint(instant: start.adding(seconds: 2), latitude: -33.9, longitude: -151.2, elevationMeters: -3),
        ]
        let workout = Workout(
            activityType: "HKWorkoutActivityTypeRunning", sourceName: "Watch", start: start,
            end: start.adding(seconds: 600), route: route)
        try store.commit(
            CommitBatch(stream: "test:routes", workouts: [LanedWorkout(workout, lane: .cold)], cursors: [.cold: 1]))
        let statement = try store.connection.prepare(
            """
            SELECT seq, time_ms, latitude, longitude, elevation_m, speed_mps, horizontal_accuracy_m
            FROM workout_route_points ORDER BY seq
            """)
        var rows: [String] = []
        while try statement.step() {
            rows.append((0..<7).map { statement.isNull($0) ? "NULL" : statement.text($0) ?? "" }.joined(separator: "|"))
        }
        let startMilliseconds = start.millisecondsSinceEpoch
        #expect(
            rows == [
                "0|\(startMilliseconds)|50.1|8.6|112.5|2.75|4.0",
                "1|NULL|50.2|8.7|NULL|NULL|NULL",
                "2|\(startMilliseconds + 2_000)|-33.9|-151.2|-3.0|NULL|NULL",
            ])
    }
}
