import HealthETLCore
import HealthETLPipeline
import HealthETLStore

/// The upload tiers as the commands run them: each opens the store and the sink, runs the
/// uploader, sends the config file's source priority when it changed, refreshes projections
/// when everything is delivered, records the run and closes the sink, whatever happened.
public struct UploadSession: Sendable {
    public let store: StoreDirectory
    public let sink: SinkChoice
    public let clock: Clock

    public init(store: StoreDirectory, sink: SinkChoice, clock: Clock = .system) {
        self.store = store
        self.sink = sink
        self.clock = clock
    }

    /// Tier 2, the nightly run: what tier 1 left first, then everything committed since.
    public func nightly() async throws -> UploadReport {
        try await run(kind: "upload") { uploader, report in
            try await uploader.drain(tiers: [.realTime, .batch], formingPending: true, into: &report)
        }
    }

    /// Tier 3: drain the queue, then re-send everything committed within `windowSeconds`, retrying
    /// failed batches for at most `patienceSeconds`.
    public func catchUp(windowSeconds: Int64, patienceSeconds: Int64) async throws -> UploadReport {
        let clock = clock
        return try await run(kind: "sync") { uploader, report in
            let started = clock.now()
            let deadline = started.adding(seconds: patienceSeconds)
            try await uploader.drain(tiers: [.realTime], retryUntil: deadline, into: &report)
            try await uploader.drain(
                tiers: [.realTime, .batch], formingPending: true, retryUntil: deadline, into: &report)
            try uploader.enqueueWindow(since: started.adding(seconds: -windowSeconds), into: &report)
            try await uploader.drain(tiers: Set(UploadTier.allCases), retryUntil: deadline, into: &report)
        }
    }

    private func run(
        kind: String, _ body: @Sendable (Uploader, inout UploadReport) async throws -> Void
    ) async throws -> UploadReport {
        let configuration = try StoreConfiguration.load(store: self.store.path)
        let store = try Store(directory: store, clock: clock)
        let sink = try sink.make()
        let run = try store.beginUploadRun(kind: kind)
        var report = UploadReport()
        do {
            try await body(Uploader(store: store, sink: sink, limits: self.sink.limits, clock: clock), &report)
            let priority = try await SourcePrioritySync(
                store: store, sink: sink, configured: configuration.sourcePriority
            ).send()
            report.sourcePrioritySent = priority.sent
            report.sourcePriorityNotSent = priority.notSent
            report.projections = try await ProjectionSync(store: store, sink: sink, clock: clock).refresh()
            report.feed = try await FeedSession.catchUp(
                store: store, sink: sink, endpoint: try self.sink.settings.text("endpoint") ?? "", clock: clock)
        } catch {
            try? await sink.shutdown()
            throw error
        }
        try await sink.shutdown()
        try store.finishUploadRun(id: run, summaryJSON: try report.jsonText())
        return report
    }
}
