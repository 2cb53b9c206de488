import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLStore

/// Tier 1 as the commands report it: on standard error, so `--json` output stays one object;
/// a failure is said and left to `healthetl upload`, never fatal to the import that preceded it.
enum RealTimeUpload {
    /// Sends the tier-1 samples committed after the commit sequence number `sequence` when a sink
    /// is configured.
    /// - Returns: the report, `nil` when no sink is configured.
    @discardableResult
    static func send(store: StoreDirectory, catalog: MetricCatalog, afterSequence sequence: Int64) async
        -> UploadReport?
    {
        do {
            guard let sender = try RealTimeSender(store: store, catalog: catalog) else { return nil }
            let report = try await sender.send(afterSequence: sequence).report
            describe(report)
            return report
        } catch {
            printError("real-time upload failed: \(CommandFailure(error).message); `healthetl upload` sends it later")
            return UploadReport()
        }
    }

    static func describe(_ report: UploadReport) {
        guard report.queuedSamples > 0 || report.attempts > 0 else { return }
        printError(
            "Real-time upload (tier 1): \(report.queuedSamples) samples in \(report.queuedBatches) batches, "
                + "\(report.deliveredBatches) delivered, \(report.failedAttempts) failed attempts (left to `healthetl upload`)"
        )
    }
}
