import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore

/// `healthetl import PATH…`: every record of one or more exports into the store.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import health exports (export.zip, export.xml, or an unzipped export folder).",
        discussion: """
            Every record ends up stored, flagged or quarantined with a reason, and the counts add up:
            accepted + flagged + quarantined + duplicates = records read. Importing the same export
            again adds nothing; a newer complete export turns what vanished into tombstones.
            A damaged file imports everything before the damage and exits with 3.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Exports to import.", valueName: "path"))
    var paths: [String]

    @Flag(help: "Print one JSON object with the counts instead of a table.")
    var json = false

    @Option(help: ArgumentHelp("Samples ending this close to the export date go to the hot lane (e.g. 7d, 36h).", valueName: "duration"))
    var hotWindow = "7d"

    @Option(help: ArgumentHelp("Records per store transaction.", valueName: "count"))
    var batchSize = ImportPipeline.defaultBatchSize

    func validate() throws {
        guard DurationText.seconds(hotWindow) != nil else {
            throw ValidationError("--hot-window takes a duration such as 7d, 36h or 90m, not \"\(hotWindow)\"")
        }
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
    }

    func run() throws {
        let catalog = try global.loadCatalog()
        let store = try global.openStore()
        let firstNewRow = try store.lastSampleRow()
        var summaries: [ImportSummary] = []
        var failures: [String] = []
        for path in paths {
            do {
                summaries.append(try importOne(path, store: store, catalog: catalog))
            } catch {
                let message = CommandFailure(error).message
                failures.append(message)
                printError("error: \(message)")
            }
        }
        // Each failure was reported as it happened.
        guard !summaries.isEmpty else { throw ExitCode(ExitStatus.failure.rawValue) }
        let summary = summaries.count == 1 ? summaries[0] : ImportSummary.total(of: summaries)
        if json {
            try JSONOutput.print(summary)
        } else {
            print(ImportReport.render(summary))
        }
        if let realTime = RealTimeUpload(global: global, catalog: catalog) {
            RealTimeUpload.describe(realTime.send(afterRow: firstNewRow).report)
        }
        if !failures.isEmpty || !summary.complete {
            throw ExitCode(ExitStatus.partial.rawValue)
        }
    }

    private func importOne(_ path: String, store: Store, catalog: MetricCatalog) throws -> ImportSummary {
        let input = SourceInput(path: path, hotWindowSeconds: DurationText.seconds(hotWindow) ?? 604_800)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(path) does not exist; pass the path of an export.zip, export.xml or export folder")
        }
        let adapter = try SourceRegistry.adapter(for: input).get()
        let progress = ProgressReporter(label: URL(fileURLWithPath: path).lastPathComponent)
        defer { progress.finish() }
        let pipeline = try ImportPipeline(
            store: store, catalog: catalog, source: type(of: adapter).name, input: path, batchSize: batchSize,
            progress: progress.report)
        var handler = pipeline
        let report: SourceReadReport
        do {
            report = try adapter.read(input, into: &handler)
        } catch {
            let failure = CommandFailure(error)
            _ = try? pipeline.abandon(problem: failure.message)
            throw failure
        }
        let summary = try pipeline.finish(report)
        if let problem = summary.problem { printError("warning: \(path): \(problem)") }
        return summary
    }
}
