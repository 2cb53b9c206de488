import CollectorSink
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore

/// What `upload` and `sync` share: open the store and the sink, run the uploader, record the
/// run, report, and exit 3 while batches are still waiting.
enum UploadRun {
    static func perform(
        kind: String, store options: GlobalOptions, sink configuration: CollectorSinkConfiguration, limits: UploadLimits,
        _ body: @escaping @Sendable (Uploader, inout UploadReport) async throws -> Void
    ) throws -> UploadReport {
        let path = options.resolvedStorePath
        do {
            return try BlockingTask.run {
                let store = try Store(directory: StoreDirectory(path: path))
                let sink = CollectorSink(configuration: configuration)
                let run = try store.beginUploadRun(kind: kind)
                var report = UploadReport()
                do {
                    try await body(Uploader(store: store, sink: sink, limits: limits), &report)
                    report.projections = try await ProjectionSync(store: store, sink: sink).refresh()
                } catch {
                    try? await sink.shutdown()
                    throw error
                }
                try await sink.shutdown()
                try store.finishUploadRun(id: run, summaryJSON: String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
                return report
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(error)
        }
    }

    static func print(_ report: UploadReport, json: Bool) throws {
        if json {
            try JSONOutput.print(report)
        } else {
            Swift.print(
                """
                Queued: \(report.queuedBatches) batches (\(report.queuedSamples) samples, \(report.queuedDeletions) deletions)
                Sent: \(report.attempts) attempts, \(report.deliveredBatches) batches delivered, \(report.acceptedItems) items accepted, \
                \(report.rejectedItems) refused by the collector (see `healthetl queue`)
                Failed: \(report.failedAttempts) attempts; \(report.deadBatches) batches dead; \(report.waitingBatches) waiting for a retry
                """)
            if let projections = report.projections {
                Swift.print(
                    "Projections: \(projections.days) days and \(projections.nights) nights of \(projections.metrics) metrics refreshed"
                        + (projections.notRefreshed.map { " (\($0))" } ?? ""))
            }
        }
        if report.waitingBatches > 0 || report.deadBatches > 0 {
            throw CommandFailure(
                "\(report.waitingBatches) batches wait for a retry and \(report.deadBatches) are dead; run `healthetl sync --catch-up` "
                    + "to keep retrying, and `healthetl queue` to see why", exitCode: .partial)
        }
    }
}
