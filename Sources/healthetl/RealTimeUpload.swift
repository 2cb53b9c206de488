import CollectorSink
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore

/// Tier 1 after `import` and `simulate`: when the store's config.json names a collector, the
/// hot lane's tier-1 metrics (HRV, ECG, sleep, resting heart rate, exercise time) go out right
/// after they commit; what fails stays in the queue for `upload`.
struct RealTimeUpload {
    let storePath: String
    let sink: CollectorSinkConfiguration
    let limits: UploadLimits
    let metrics: Set<String>

    /// Nil when no collector is configured (nothing to do), or when its settings are unusable
    /// (said on standard error: the nightly `upload` will report it too).
    init?(global: GlobalOptions, catalog: MetricCatalog) {
        storePath = global.resolvedStorePath
        guard let stored = try? StoreConfiguration.load(store: storePath), stored.endpoint != nil else { return nil }
        do {
            (sink, limits) = try SinkOptions.parse([]).resolve(store: storePath)
        } catch {
            printError("real-time upload skipped: \(CommandFailure(error).message)")
            return nil
        }
        metrics = Set(catalog.metrics.filter { $0.tier == 1 }.map(\.id))
    }

    /// Sends what was committed after `row`; returns the new mark.
    func send(afterRow row: Int64) -> (mark: Int64, report: UploadReport) {
        let path = storePath
        let (sink, limits, metrics) = (sink, limits, metrics)
        do {
            return try BlockingTask.run {
                let store = try Store(directory: StoreDirectory(path: path))
                let collector = CollectorSink(configuration: sink)
                var report = UploadReport()
                do {
                    let mark = try await Uploader(store: store, sink: collector, limits: limits)
                        .sendRealTime(afterRow: row, metrics: metrics, into: &report)
                    try await collector.shutdown()
                    return (mark, report)
                } catch {
                    try? await collector.shutdown()
                    throw error
                }
            }
        } catch {
            printError("real-time upload failed: \(CommandFailure(error).message); `healthetl upload` sends it later")
            return (row, UploadReport())
        }
    }

    /// One line for people, on standard error so `--json` output stays one object.
    static func describe(_ report: UploadReport) {
        guard report.queuedSamples > 0 || report.attempts > 0 else { return }
        printError(
            "Real-time upload (tier 1): \(report.queuedSamples) samples in \(report.queuedBatches) batches, "
                + "\(report.deliveredBatches) delivered, \(report.failedAttempts) failed attempts (left to `healthetl upload`)")
    }
}
