import Dispatch
import HealthAutoExport
import HealthETLCollector
import HealthETLCore
import HealthETLPipeline
import HealthETLStore

/// Commits what Health Auto Export pushes to `healthetl receive`: each body is read whole (a
/// malformed one commits nothing), then committed as one transaction to the hot lane of stream
/// `health_auto_export:<device>` before the answer goes out. Records are identified by their
/// content, so a resend (HAE repeats overlapping windows, and retries a push whose answer it
/// lost) stores nothing twice. The store is used on one queue, one push at a time.
public final class PushIngest: PushCommitter, @unchecked Sendable {
    private let queue = DispatchQueue(label: "healthetl.receive.store")
    /// Used only on `queue`.
    private let store: Store
    private let catalog: MetricCatalog
    private let clock: Clock
    private let forwarder: TierOneForwarder?

    /// - Parameter report: where tier-1 forwarding failures are said (never with values).
    public init(
        store directory: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system,
        report: @escaping @Sendable (String) -> Void
    ) throws {
        let store = try Store(directory: directory, clock: clock)
        let committedBefore = try store.lastSampleSequence()
        self.store = store
        self.catalog = catalog
        self.clock = clock
        forwarder = try RealTimeSender(store: directory, catalog: catalog, clock: clock).map {
            TierOneForwarder(sender: $0, after: committedBefore, report: report)
        }
    }

    /// The stream a device's pushes commit to.
    public static func stream(device: String) -> String {
        HealthAutoExportAdapter.name + ":" + device
    }

    public func commit(body: [UInt8], device: String, requestID: String) async throws -> PushOutcome {
        let read: (events: [SourceEvent], warnings: [String: Int])
        do {
            read = try body.withUnsafeBytes { try HealthAutoExportAdapter.events(ofBody: $0, catalog: catalog) }
        } catch let error as HealthAutoExportError {
            return .malformed(reason: error.description)
        }
        let stream = Self.stream(device: device)
        let summary = try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(
                    with: Result {
                        try self.ingest(read.events, warnings: read.warnings, stream: stream, requestID: requestID)
                    })
            }
        }
        await forwarder?.poke()
        // Which records were refused is found again only when some were: most pushes have none.
        let quarantined =
            summary.quarantined + summary.correlationsQuarantined + summary.correlationComponents.quarantined
        let refused =
            quarantined == 0
            ? [] : PushReport.refusals(of: read.events, normalizer: Normalizer(catalog: catalog, now: clock.now()))
        let report = PushReport(summary, stream: stream, refused: refused)
        return .committed(
            json: try report.json(), stored: report.stored, duplicates: report.duplicates,
            refused: report.quarantined)
    }

    /// One push, one hot-lane commit: the checkpoint comes after the last record.
    private func ingest(_ events: [SourceEvent], warnings: [String: Int], stream: String, requestID: String) throws
        -> ImportSummary
    {
        let now = clock.now()
        let ingest = try ExportIngest(
            store: store, catalog: catalog, source: HealthAutoExportAdapter.name, input: "receive " + requestID,
            resumes: false, clock: clock)
        do {
            try ingest.receive(.streamStarted(stream: stream, now: now, isFullSnapshot: false, endPosition: nil))
            for event in events { try ingest.receive(event) }
            // The hot cursor's position is the receive time: `status` shows it as the last push.
            try ingest.receive(
                .checkpoint(StreamCursor(stream: stream, lane: .hot, position: now.millisecondsSinceEpoch)))
        } catch {
            _ = try? ingest.abandon(problem: "\(error)")
            throw error
        }
        return try ingest.finish(SourceReadReport(complete: true, warnings: warnings))
    }
}
