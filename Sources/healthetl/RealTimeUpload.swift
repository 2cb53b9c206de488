import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLStore

/// Tier 1 as the commands report it: on standard error, so `--json` output stays one object;
/// a failure is said and left to `healthetl upload`, never fatal to the import that preceded it.
enum RealTimeUpload {
    /// Tier 1 of an import: what went, or why it did not.
    static func describe(_ run: ImportRun) {
        if let error = run.realTimeError {
            printError("real-time upload failed: \(CommandFailure(error).message); `healthetl upload` sends it later")
        } else if let report = run.realTime {
            describe(report)
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
