import ArgumentParser
import HealthETLCore
import HealthETLRuntime

/// `healthetl upload`: the nightly batch run (tier 2), after what tier 1 left in the queue.
struct UploadCommand: AsyncParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Ship everything not yet uploaded to the collector, in batches, through the retry queue.",
        discussion: """
            Queues every sample and deletion committed since the last run as batches (each stored
            with its id before the first send), then sends what the queue holds: tier-1 leftovers
            first. A batch that fails waits with backoff for the next run (or `sync --catch-up`);
            one the collector refuses outright is dead (see `healthetl queue`). Exit 3 when some
            batches are still waiting. Cron: `0 3 * * * healthetl upload`.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL
    @OptionGroup var sink: SinkOptions
    @OptionGroup var metrics: MetricsFileOptions

    @Flag(help: "Print one JSON object instead of a summary.")
    var json = false

    func run() async throws {
        let session = UploadSession(
            store: global.storeDirectory, sink: try sink.resolve(store: global.resolvedStorePath))
        let report = try await metrics.recording(command: "upload") {
            try await CommandFailure.wrapping { try await session.nightly() }
        }
        try UploadRun.print(report, json: json)
    }
}
