import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLStore
import HealthETLTestSupport
import Testing

/// The library entry points the thin commands call: what they return and the errors they name.
@Suite struct EntryPointTests {
    let directory = TemporaryDirectory("healthetl-entry-points")
    let clock = Clock.fixed(Instant(millisecondsSinceEpoch: 1_767_225_600_000))  // 2026-01-01

    var store: StoreDirectory { StoreDirectory(path: directory.child("store")) }

    private func simulate(_ configure: (inout SimulationRequest) -> Void) throws -> Simulation.Outcome {
        var request = SimulationRequest()
        request.historyDays = 2
        configure(&request)
        return try Simulation(store: store, catalog: try MetricCatalog.bundled(), clock: clock)
            .run(request, stop: StopSignal())
    }

    @Test func aSimulationLoadsHistoryAndContinuesOnlyWithTheOptionsItWasCreatedWith() throws {
        let first = try simulate { _ in }
        let records = Lane.allCases.reduce(0) { $0 + first.ingest.tally($1).records }
        #expect(records > 1_000)
        #expect(first.realTime == nil, "no sink is configured")

        // The same stream again, options left out: nothing new, nothing refused.
        let again = try simulate { $0.historyDays = nil }
        #expect(Lane.allCases.allSatisfy { again.ingest.tally($0).accepted == 0 })

        #expect(throws: SimulationError.conflictingOptions(stream: first.ingest.streams[0], createdWith: ["--days 2"]))
        {
            _ = try simulate { $0.historyDays = 5 }
        }
    }

    @Test func projectionsRefuseAMetricTheCatalogLacksAndComputeLocally() throws {
        _ = try simulate { _ in }
        let days = try #require(ProjectionQuery.days(first: nil, last: nil, clock: clock))
        #expect(days.upperBound == CivilDate(text: "2026-01-01"))
        #expect(days.lowerBound == CivilDate(text: "2025-12-26"))
        #expect(ProjectionQuery.days(first: CivilDate(text: "2026-01-02"), last: CivilDate(text: "2026-01-01")) == nil)

        let catalog = try MetricCatalog.bundled()
        #expect(throws: ProjectionQueryError.unknownMetric("no_such_metric")) {
            _ = try ProjectionQuery(metric: "no_such_metric", days: days).run(store: store, catalog: catalog)
        }
        let local = try ProjectionQuery(metric: "step_count", days: days, local: true)
            .run(store: store, catalog: catalog, clock: clock)
        #expect(local.origin == .local)
        #expect(!local.days.isEmpty)
        #expect(local.days.allSatisfy { $0.rollup.metric == "step_count" && $0.freshness == "local" })
        // Nothing was uploaded, so the collector's copy holds nothing yet.
        let stored = try ProjectionQuery(metric: "step_count", days: days).run(store: store, catalog: catalog)
        #expect(stored.origin == .collector && stored.days.isEmpty)
    }

    @Test func theQueueListsEveryStateAndNamesABatchItCannotRetry() throws {
        let queue = UploadQueueControl(store: store, clock: clock)
        let empty = try queue.list(everyState: true, limit: 10)
        #expect(empty.batches.isEmpty)
        #expect(Set(empty.counts.keys) == Set(QueueState.allCases.map(\.name)))
        #expect(empty.counts.values.allSatisfy { $0 == 0 })
        #expect(throws: UploadQueueError.noSuchBatch("b-missing")) { _ = try queue.retry(batchID: "b-missing") }
        #expect(try queue.retry(batchID: nil) == 0)
        #expect(try queue.purgeDead() == 0)
    }
}
