import ArgumentParser
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime

/// `healthetl sync --catch-up`: tier 3 — drain the queue, then re-send a window.
struct SyncCommand: AsyncParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Heal any gap: drain the retry queue, then re-send everything committed in a window.",
        discussion: """
            Sends tier 1, then tier 2 (queuing what `upload` has not yet), then every sample
            committed within --since (and every deletion) again; the collector de-duplicates by
            sample id. Failed batches are retried with backoff until --max-wait runs out. Widen
            --since to backfill a collector that lost data, e.g. --since 3650d.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL
    @OptionGroup var sink: SinkOptions
    @OptionGroup var metrics: MetricsFileOptions

    @Flag(help: "Catch up (the one mode of sync).")
    var catchUp = false

    @Option(
        help: ArgumentHelp("Re-send what was committed this long ago or later (default 24h).", valueName: "duration"))
    var since = "24h"

    @Option(help: ArgumentHelp("Keep retrying failed batches this long (default 10m).", valueName: "duration"))
    var maxWait = "10m"

    @Flag(help: "Print one JSON object instead of a summary.")
    var json = false

    func validate() throws {
        guard catchUp else { throw ValidationError("sync needs --catch-up (the nightly run is `healthetl upload`)") }
        guard DurationText.seconds(since) != nil else {
            throw ValidationError("--since takes a duration such as 24h, 7d or 3650d")
        }
        guard DurationText.seconds(maxWait) != nil else {
            throw ValidationError("--max-wait takes a duration such as 90s or 10m")
        }
    }

    func run() async throws {
        let session = UploadSession(
            store: global.storeDirectory, sink: try sink.resolve(store: global.resolvedStorePath))
        let window = DurationText.seconds(since) ?? 86_400
        let patience = DurationText.seconds(maxWait) ?? 600
        let report = try await metrics.recording(command: "sync") {
            try await CommandFailure.wrapping {
                try await session.catchUp(windowSeconds: window, patienceSeconds: patience)
            }
        }
        try UploadRun.print(report, json: json)
    }
}
