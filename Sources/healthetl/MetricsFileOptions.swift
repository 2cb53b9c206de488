import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLPipeline
import Prometheus

/// `--metrics-file PATH` on the batch commands (`import`, `upload`, `sync`): the run's figures in
/// Prometheus's text format, for node_exporter's textfile collector, so a nightly run shows in
/// Grafana beside the servers. Counts only (never a value, a user or a token), so the file is
/// 0644 for node_exporter to read; it is replaced whole, never seen half written.
struct MetricsFileOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Write this run's figures here for node_exporter's textfile collector (e.g. /var/lib/node_exporter/healthetl.prom).",
            valueName: "file"))
    var metricsFile: String?

    /// The figures a run reports, each with its labels besides `command`.
    typealias Figures = [(name: String, help: String, labels: [(String, String)], value: Double)]

    /// Writes the file, when asked for: when the run ended, how long it took, whether it
    /// succeeded, and its figures.
    func write(command: String, started: Duration, succeeded: Bool, _ figures: Figures) throws {
        guard let metricsFile else { return }
        let registry = PrometheusCollectorRegistry()
        func gauge(_ name: String, _ help: String, _ labels: [(String, String)], _ value: Double) {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "healthetl", subsystem: "cli", metricName: name, unitName: "", helpText: help),
                labels: [("command", command)] + labels
            ).set(value)
        }
        gauge(
            "last_run_timestamp_seconds", "When the command last ended (Unix time).", [],
            Double(Clock.system.now().millisecondsSinceEpoch) / 1000)
        gauge(
            "last_run_duration_seconds", "How long the command's last run took.", [],
            Clock.system.secondsSince(started))
        gauge("last_run_success", "1 when the last run did all it was asked, else 0.", [], succeeded ? 1 : 0)
        for figure in figures { gauge(figure.name, figure.help, figure.labels, figure.value) }
        let partial = metricsFile + ".\(getpid()).partial"
        let written = FileManager.default.createFile(
            atPath: partial, contents: Data(registry.emitToBuffer()), attributes: [.posixPermissions: 0o644])
        guard written, rename(partial, metricsFile) == 0 else {
            unlink(partial)
            throw CommandFailure(
                "cannot write the metrics file \(metricsFile); check that its directory exists and is writable")
        }
    }

    /// Runs an upload or a sync and writes its figures; a run that fails is written as one.
    func recording(command: String, _ run: () async throws -> UploadReport) async throws -> UploadReport {
        let started = Clock.system.monotonic()
        let report: UploadReport
        do {
            report = try await run()
        } catch {
            try? write(command: command, started: started, succeeded: false, [])
            throw error
        }
        try write(
            command: command, started: started, succeeded: report.waitingBatches == 0 && report.deadBatches == 0,
            Self.figures(of: report))
        return report
    }

    /// An upload's or a sync's figures.
    static func figures(of report: UploadReport) -> Figures {
        let batches = "Batches of the last run, per outcome."
        let items = "Samples and deletions of the last run, as the collector answered."
        return [
            ("upload_batches", batches, [("outcome", "delivered")], Double(report.deliveredBatches)),
            ("upload_batches", batches, [("outcome", "dead")], Double(report.deadBatches)),
            ("upload_batches", batches, [("outcome", "waiting")], Double(report.waitingBatches)),
            ("upload_items", items, [("outcome", "accepted")], Double(report.acceptedItems)),
            ("upload_items", items, [("outcome", "rejected")], Double(report.rejectedItems)),
            ("upload_failed_attempts", "Sends of the last run that failed.", [], Double(report.failedAttempts)),
        ]
    }

    /// An import's figures.
    static func figures(of summary: ImportSummary) -> Figures {
        let records = "Records of the last import, per outcome."
        return [
            ("import_records", records, [("outcome", "read")], Double(summary.recordsRead)),
            ("import_records", records, [("outcome", "accepted")], Double(summary.accepted)),
            ("import_records", records, [("outcome", "flagged")], Double(summary.flagged)),
            ("import_records", records, [("outcome", "duplicate")], Double(summary.duplicates)),
            ("import_records", records, [("outcome", "deleted_earlier")], Double(summary.deletedEarlier)),
            ("import_records", records, [("outcome", "quarantined")], Double(summary.quarantined)),
        ]
    }
}
