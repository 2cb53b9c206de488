import HealthETLCore
import HealthETLTestSupport
import Synchronization
import Testing

@testable import HealthETLPipeline
@testable import HealthETLStore

/// A workout weighs what it writes: an export's workouts with long routes are committed a batch
/// at a time, not gathered whole until the end of the read (an import's memory grew with the
/// export that way).
@Suite struct WorkoutBatchSizeTests {
    let directory = TemporaryDirectory()

    static func workout(_ index: Int, routePoints: Int) -> Workout {
        let start = RecordFixtures.now.adding(seconds: -86_400 * 30 + Int64(index) * 3_600)
        return Workout(
            activityType: "HKWorkoutActivityTypeRunning", sourceName: "Watch", start: start,
            end: start.adding(seconds: 1_800),
            route: (0..<routePoints).map { point in
                RoutePoint(
                    instant: start.adding(seconds: Int64(point)), latitude: 50 + Double(point) / 10_000, longitude: 8)
            })
    }

    @Test func workoutsWithLongRoutesFillBatchesByTheirRows() throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")))
        let commits = Atomic<Int>(0)
        let ingest = try ArchiveIngest(
            store: store, catalog: try MetricCatalog.bundled(), source: "apple_health", input: "export.zip",
            batchSize: 1_000, afterCommit: { _ in commits.add(1, ordering: .relaxed) })
        try ingest.receive(
            .streamStarted(
                stream: "apple_health:test", now: RecordFixtures.now, isFullSnapshot: false, endPosition: nil,
                positions: .bytes))
        // 20 workouts of 300 route points: 6,000 rows to write, 20 items.
        for index in 0..<20 {
            try ingest.receive(.workout(Self.workout(index, routePoints: 300), lane: .cold))
            try ingest.receive(
                .checkpoint(StreamCursor(stream: "apple_health:test", lane: .cold, position: Int64(index + 1))))
        }
        let committedWhileReading = commits.load(ordering: .relaxed)
        let summary = try ingest.finish(SourceReadReport(complete: true))
        #expect(summary.workouts == 20)
        // A batch of 1,000 rows holds four such workouts: most are committed before the end.
        #expect(committedWhileReading >= 4)
        var small = RawBatch()
        small.append(.workout(Self.workout(0, routePoints: 300), lane: .cold))
        #expect(small.count == 1 && small.size == 301)
        small.truncate(to: RawBatch().mark)
        #expect(small.size == 0)
    }

    /// An HRV record carries its beats: 5,000 of them held 30 MB more than other batches.
    @Test func recordsWithLongSeriesFillBatchesByTheirPoints() throws {
        var record = RecordFixtures.record(type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", unit: "ms")
        record.series = (0..<64).map { beat in
            SeriesPoint(instant: RecordFixtures.now.adding(seconds: Int64(beat)), value: 60)
        }
        var batch = RawBatch()
        batch.append(.record(RecordFixtures.record(), lane: .cold))
        let mark = batch.mark
        batch.append(.record(record, lane: .cold))
        batch.append(.correlationComponent(record, lane: .cold))
        #expect(batch.count == 3 && batch.size == 3 + 2 * 64)
        batch.truncate(to: mark)
        #expect(batch.count == 1 && batch.size == 1)
        batch.clear()
        #expect(batch.size == 0)
    }
}
