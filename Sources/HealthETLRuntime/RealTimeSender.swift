import HealthETLCore
import HealthETLPipeline
import HealthETLStore

/// Tier 1 after `import` and during `simulate`: when the store's config file names a sink, the
/// hot lane's tier-1 metrics (HRV, ECG, sleep, resting heart rate, exercise time) go out right
/// after they commit, with quick retries; what fails stays queued at tier 1 for `upload`.
public struct RealTimeSender: Sendable {
    public let store: StoreDirectory
    public let sink: SinkChoice
    public let metrics: Set<String>
    public let clock: Clock

    /// `nil` when no sink is configured: there is nowhere to send to.
    /// - Throws: when a sink is configured but its settings are unusable.
    public init?(store: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system) throws {
        guard let sink = try SinkChoice.configured(store: store.path) else { return nil }
        self.store = store
        self.sink = sink
        self.metrics = Set(catalog.metrics.filter { $0.tier == 1 }.map(\.id))
        self.clock = clock
    }

    /// Sends the tier-1 samples committed after the commit sequence number `sequence`.
    /// - Returns: the sequence number sent up to (pass it to the next call) and what was done.
    public func send(afterSequence sequence: Int64) async throws -> (mark: Int64, report: UploadReport) {
        let store = try Store(directory: store, clock: clock)
        let sink = try sink.make()
        var report = UploadReport()
        do {
            let uploader = Uploader(store: store, sink: sink, limits: self.sink.limits, clock: clock)
            let mark = try await uploader.sendRealTime(afterSequence: sequence, metrics: metrics, into: &report)
            try await sink.shutdown()
            return (mark, report)
        } catch {
            try? await sink.shutdown()
            throw error
        }
    }
}
