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

    /// A run taken back (its input was damaged) takes its workouts' routes with it and leaves
    /// the routes an earlier run stored.
    @Test func aRolledBackRunTakesItsRoutesAndLeavesEarlierOnes() throws {
        let path = directory.child("store")
        let first = RecordFixtures.now.adding(seconds: -86_400)
        func workout(at start: Instant, points: Int) -> LanedWorkout {
            let route = (0..<points).map {
                RoutePoint(instant: start.adding(seconds: Int64($0)), latitude: 50 + Double($0) / 100, longitude: 8)
            }
            let workout = Workout(
                activityType: "HKWorkoutActivityTypeWalking", sourceName: "Watch", start: start,
                end: start.adding(seconds: 600), route: route)
            return LanedWorkout(workout, lane: .cold)
        }
        let kept = workout(at: first, points: 3)
        do {
            let earlier = try Store(directory: StoreDirectory(path: path), clock: .fixed(first))
            try earlier.commit(CommitBatch(stream: "s", workouts: [kept], cursors: [.cold: 1]))
        }
        let store = try Store(directory: StoreDirectory(path: path), clock: .fixed(RecordFixtures.now))
        let run = try store.beginImportRun(source: "apple_health", input: "export.zip", stream: "s")
        try store.commit(
            CommitBatch(
                stream: "s", workouts: [workout(at: first.adding(seconds: 3_600), points: 4)], cursors: [.cold: 2]))
        #expect(try store.connection.scalar("SELECT count(*) FROM workout_route_points") == 7)

        try store.rollBack(run: run, stream: "s", cursors: [.cold: 1], coverage: [])
        let left = try store.connection.prepare("SELECT DISTINCT hex(workout_id) FROM workout_route_points")
        var owners: [String] = []
        while try left.step() { owners.append(left.text(0) ?? "") }
        #expect(owners == [kept.workout.id.bytes.map { String(format: "%02X", $0) }.joined()])
        #expect(try store.connection.scalar("SELECT count(*) FROM workout_route_points") == 3)
        #expect(try store.connection.scalar("SELECT count(*) FROM workouts") == 1)
    }
}
