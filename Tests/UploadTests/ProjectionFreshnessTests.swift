import CollectorSink
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import HealthETLTestSupport
import Testing

/// Projection refresh after uploads: dirty keys stay stale while batches are undelivered, a
/// refresh after delivery fills the local tables with the collector's rollups and clears them,
/// a new commit makes a day stale again, and what the collector no longer has is pruned.
@Suite struct ProjectionFreshnessTests {
    let collector = UploadCollector()
    let directory = TemporaryDirectory("upload-projections")

    @Test func projectionsRefreshOnlyAfterDeliveryAndPruneWhatTheCollectorLost() async throws {
        let path = directory.child("store")
        let first = Upload.day("2026-01-05")
        let second = Upload.day("2026-01-06")
        let morning = Upload.sample("step_count", "2026-01-05T10:00:00Z", value: 600)
        let noon = Upload.sample("step_count", "2026-01-05T12:00:00Z", value: 400)
        let evening = Upload.sample("step_count", "2026-01-05T18:00:00Z", value: 250)
        let lonely = Upload.sample("step_count", "2026-01-06T09:00:00Z", value: 100)
        try await collector.run { port, sinks in
            let clock = TestClock()
            let store = try Upload.store(path, clock: clock)
            try Upload.commit(store, [morning, noon, evening, lonely])
            #expect(try store.dirtyProjectionKeys().keys == ["step_count": [first, second]])
            let window = first.adding(days: -1)...second.adding(days: 1)

            // The collector is down: the batch waits, and the refresh leaves the keys stale.
            let down = try FaultInjectingServer(script: [], afterScript: .respond(status: 503))
            let downSink = try sinks.make(port: down.port)
            var failing = UploadReport()
            let failingUploader = Upload.uploader(store, downSink, clock: clock)
            try failingUploader.enqueuePending(into: &failing)
            try await failingUploader.drain(tiers: [.batch], into: &failing)
            #expect(failing.waitingBatches == 1)
            let refresh = try await ProjectionSync(store: store, sink: downSink, clock: .following { clock.now() })
                .refresh()
            #expect(refresh.notRefreshed?.contains("1 batches are not delivered yet") == true, "\(refresh)")
            #expect(refresh.days == 0)
            down.stop()
            #expect(try store.dirtyProjectionKeys().keys == ["step_count": [first, second]])
            #expect(try store.dailyProjections(metric: "step_count", days: window).isEmpty)

            let sink = try sinks.make(port: port)
            let uploader = Upload.uploader(store, sink, clock: clock)
            let sync = ProjectionSync(store: store, sink: sink, clock: .following { clock.now() })
            // The failed batch's next attempt is 0.2 s away.
            var report = UploadReport()
            try await uploader.drain(
                tiers: [.batch], retryUntil: clock.now().adding(seconds: 60), into: &report)
            #expect(report.deliveredBatches == 1 && report.waitingBatches == 0)
            let refreshed = try await sync.refresh()
            #expect(refreshed.notRefreshed == nil && refreshed.metrics == 1 && refreshed.days == 2)
            #expect(try store.dirtyProjectionKeys().keys.isEmpty)
            let fresh = try store.dailyProjections(metric: "step_count", days: window)
            #expect(fresh.map(\.rollup.day.description) == ["2026-01-05", "2026-01-06"])
            #expect(fresh.map(\.rollup.sum) == [1250, 100] && fresh.map(\.rollup.count) == [3, 1])
            #expect(fresh.allSatisfy { $0.origin == "collector" && !$0.dirty })

            // A new sample on the first day: that day is stale, its old rollup still shown.
            let late = Upload.sample("step_count", "2026-01-05T20:00:00Z", value: 50)
            try Upload.commit(store, [late])
            #expect(try store.dirtyProjectionKeys().keys == ["step_count": [first]])
            let stale = try store.dailyProjections(metric: "step_count", days: window)
            #expect(stale.map(\.dirty) == [true, false] && stale.first?.rollup.sum == 1250)

            // Delete one sample of the first day and the only one of the second, deliver,
            // refresh: the first day drops, the second day's row is pruned.
            try Upload.commit(
                store, [],
                tombstones: [
                    Tombstone(of: noon, reason: "deleted_at_source", deletedAt: clock.now()),
                    Tombstone(of: lonely, reason: "deleted_at_source", deletedAt: clock.now()),
                ], lane: .change)
            #expect(try store.dirtyProjectionKeys().keys == ["step_count": [first, second]])
            var more = UploadReport()
            try uploader.enqueuePending(into: &more)
            #expect(more.queuedSamples == 1 && more.queuedDeletions == 2)
            try await uploader.drain(tiers: [.batch], into: &more)
            #expect(more.deliveredBatches == 2)
            let again = try await sync.refresh()
            #expect(again.notRefreshed == nil)
            #expect(try store.dirtyProjectionKeys().keys.isEmpty)
            let pruned = try store.dailyProjections(metric: "step_count", days: window)
            #expect(pruned.map(\.rollup.day.description) == ["2026-01-05"])
            #expect(
                pruned.first?.rollup.sum == 900 && pruned.first?.rollup.count == 3
                    && pruned.first?.dirty == false)
            #expect(
                Set(try collector.sampleRows().keys)
                    == Upload.hex([
                        morning, evening, Upload.sample("step_count", "2026-01-05T20:00:00Z", value: 50),
                    ]))
        }
    }
}
