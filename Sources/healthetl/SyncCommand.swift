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
        help: ArgumentHelp(
            "Re-send what was committed this long ago or later (e.g. 24h, 7d, 3650d).", valueName: "duration"))
    var since = TimeSpan.hours(24)

    @Option(help: ArgumentHelp("Keep retrying failed batches this long (e.g. 90s, 10m).", valueName: "duration"))
    var maxWait = TimeSpan.minutes(10)

    @Flag(help: "Print one JSON object instead of a summary.")
    var json = false

    func validate() throws {
        guard catchUp else { throw ValidationError("sync needs --catch-up (the nightly run is `healthetl upload`)") }
    }

    func run() async throws {
        let session = UploadSession(
            store: global.storeDirectory, sink: try sink.resolve(store: global.resolvedStorePath))
        let report = try await metrics.recording(command: "sync") {
            try await CommandFailure.wrapping {
                try await session.catchUp(windowSeconds: since.seconds, patienceSeconds: maxWait.seconds)
            }
        }
        try UploadRun.print(report, json: json)
    }
}
