import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime

/// `healthetl import PATH…`: every record of one or more exports into the store.
struct ImportCommand: AsyncParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import health exports (export.zip, export.xml, or an unzipped export folder).",
        discussion: """
            Every record ends up stored, flagged or quarantined with a reason, and the counts add up:
            accepted + flagged + quarantined + duplicates = records read. Importing the same export
            again adds nothing; a newer complete export turns what vanished into tombstones.
            A damaged file imports everything before the damage and exits with 3.
            """)

    @OptionGroup var given: GlobalOptions
    @OptionGroup var metrics: MetricsFileOptions
    @ParentCommand var root: HealthETL

    @Argument(help: ArgumentHelp("Exports to import.", valueName: "path"))
    var paths: [String]

    @Flag(help: "Print one JSON object with the counts instead of a table.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Samples ending this close to the export date go to the hot lane (e.g. 7d, 36h).", valueName: "duration"))
    var hotWindow = TimeSpan.days(7)

    @Option(
        help: ArgumentHelp(
            "Read with this source (`healthetl plugins`) instead of probing the input.", valueName: "name"))
    var source: String?

    @Flag(help: "Read every input from its start, even where the store holds it already (resuming is the default).")
    var fromStart = false

    @Option(help: ArgumentHelp("Records per store transaction.", valueName: "count"))
    var batchSize = IngestEngine.defaultBatchSize

    func validate() throws {
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
    }

    func run() async throws {
        let started = Clock.system.monotonic()
        var importer = ArchiveImport()
        importer.hotWindowSeconds = hotWindow.seconds
        importer.batchSize = batchSize
        importer.source = source
        importer.fromStart = fromStart
        let run: ImportRun
        // The bundled catalog is read on a thread of its own while the store opens.
        MetricCatalog.prepareBundled()
        do {
            run = try await importer.run(paths, store: global.storeDirectory, catalog: global.loadCatalog) {
                let reporter = ProgressReporter(label: URL(fileURLWithPath: $0).lastPathComponent)
                return ImportProgressReport(progress: reporter.report, finished: reporter.finish)
            }
        } catch let error as RegistryError where source != nil {
            // A --source that names no source, or one that reads no files, is a usage error.
            throw CommandFailure(error.description, exitCode: .usage)
        } catch {
            throw CommandFailure(error)
        }
        for failure in run.failures { printError("error: \(CommandFailure(failure.error).message)") }
        guard let summary = run.summary else {
            try? metrics.write(command: "import", started: started, succeeded: false, [])
            throw ExitCode(ExitStatus.failure.rawValue)
        }
        for input in summary.inputs ?? [summary] {
            if let problem = input.problem { printError("warning: \(input.input): \(problem)") }
        }
        RealTimeUpload.describe(run)
        try metrics.write(
            command: "import", started: started, succeeded: run.isComplete, MetricsFileOptions.figures(of: summary))
        if json {
            try JSONOutput.print(summary)
        } else {
            print(ImportSummaryText.render(summary))
        }
        if !run.isComplete { throw ExitCode(ExitStatus.partial.rawValue) }
    }
}
