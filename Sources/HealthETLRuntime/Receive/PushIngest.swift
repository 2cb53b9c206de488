import Dispatch
import HealthAutoExport
import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import HealthETLWire

/// Commits what Health Auto Export pushes to `healthetl receive`: each body is read from its
/// spool file as a stream, a batch at a time, and committed to the hot lane of stream
/// `health_auto_export:<device>` in one transaction (each batch a savepoint of it) before the
/// answer goes out, so a push of any size costs bounded memory and is stored whole or not at all
/// (a body that stops being HAE's JSON anywhere commits nothing). Records are identified by their
/// content, so a resend (HAE repeats overlapping windows, and retries a push whose answer it
/// lost) stores nothing twice. The store is used on one queue, one push at a time.
public final class PushIngest: PushCommitter, @unchecked Sendable {
    private let queue = DispatchQueue(label: "healthetl.receive.store")
    /// Used only on `queue`.
    private let store: Store
    private let catalog: MetricCatalog
    private let clock: Clock
    private let forwarder: TierOneForwarder?

    /// A body that is not HAE's JSON: why, with where.
    private struct Malformed: Error {
        let reason: String
    }

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

    public func commit(body: PushBody, device: String, requestID: String) async throws -> PushOutcome {
        let stream = Self.stream(device: device)
        let summary: ImportSummary
        do {
            summary = try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result { try self.ingest(body, stream: stream, requestID: requestID) })
                }
            }
        } catch let malformed as Malformed {
            return .malformed(reason: malformed.reason)
        }
        await forwarder?.poke()
        // Which records were refused is found again only when some were: most pushes have none.
        let quarantined =
            summary.quarantined + summary.correlationsQuarantined + summary.correlationComponents.quarantined
        let refused =
            quarantined == 0
            ? [] : try PushReport.refusals(in: body, normalizer: Normalizer(catalog: catalog, now: clock.now()))
        let report = PushReport(summary, stream: stream, refused: refused)
        return .committed(
            json: try report.json(), stored: report.stored, duplicates: report.duplicates,
            refused: report.quarantined)
    }

    /// One push, one transaction: its batches are committed as the adapter reads them, the
    /// checkpoint comes after the last record, and a body that turns out malformed undoes them all.
    private func ingest(_ body: PushBody, stream: String, requestID: String) throws -> ImportSummary {
        let now = clock.now()
        return try store.asOneTransaction {
            let ingest = try ArchiveIngest(
                store: store, catalog: catalog, source: HealthAutoExportAdapter.name, input: "receive " + requestID,
                resumes: false, clock: clock)
            var events = PushEvents(ingest: ingest, stream: stream, receivedAt: now)
            let read: SourceReadReport
            do {
                read = try HealthAutoExportAdapter().read(
                    SourceInput(path: body.path, hotWindowSeconds: 0, readAt: now), into: &events)
                guard read.complete else {
                    // The adapter names the file it read: the spool file means nothing to the phone.
                    let problem = read.problem ?? "the body is not Health Auto Export's JSON"
                    throw Malformed(
                        reason: problem.hasPrefix(body.path + ": ")
                            ? String(problem.dropFirst(body.path.count + 2)) : problem)
                }
                // Whatever the body held, the push moves the hot cursor to its receive time.
                try events.receive(.checkpoint(StreamCursor(stream: stream, lane: .hot, position: 0)))
            } catch {
                // The writer settles before the transaction is rolled back.
                _ = try? ingest.abandon(problem: "\(error)")
                throw error
            }
            return try ingest.finish(SourceReadReport(complete: true, warnings: read.warnings))
        }
    }
}
