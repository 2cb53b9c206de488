import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLRuntime

/// `healthetl export`: samples (or the daily figures) out as CSV, NDJSON or FHIR R4.
struct ExportCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write samples, or the daily rollups and sleep nights, as CSV, NDJSON or FHIR R4.",
        discussion: """
            Streams from the store in constant memory. CSV (RFC 4180) has a header, local and UTC
            times and the canonical unit in its unit column; NDJSON is one sample per line; FHIR is a
            Bundle of Observations (LOINC and UCUM from the metric catalog), or with --bulk one
            NDJSON file per resource type in the --out folder. A sample's day, for --from and --to,
            is its start at the offset it was recorded with. Files are private (0600) and appear
            only when complete.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Option(help: ArgumentHelp("csv, ndjson or fhir.", valueName: "format"))
    var format: ExportFormat

    @Option(help: ArgumentHelp("A metric to export (repeatable; default: every metric).", valueName: "metric"))
    var metric: [String] = []

    @OptionGroup var days: DayRangeOptions

    @Option(help: ArgumentHelp("Only this source's samples (its name as `status` shows it).", valueName: "name"))
    var source: String?

    @Option(
        name: .customLong("out"),
        help: ArgumentHelp("A file, - for standard output, or with --bulk a folder.", valueName: "path"))
    var output = "-"

    @Flag(help: "Export the daily rollups and sleep nights instead of samples.")
    var daily = false

    @Flag(help: "FHIR Bulk Data: Patient.ndjson and Observation.ndjson in the --out folder.")
    var bulk = false

    @Flag(help: "With --daily: the figures as the collector computed them (needs --from and --to).")
    var fromCollector = false

    @Flag(
        help: ArgumentHelp(
            "With --format csv: write cells that begin with =, +, -, @, a tab or a carriage return as they are. "
                + "By default such a cell gets a leading ' so a spreadsheet opens it as text and never runs it."))
    var csvRawCells = false

    @OptionGroup var sinkOptions: SinkOptions

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    func validate() throws {
        if csvRawCells && format != .csv {
            throw ValidationError("--csv-raw-cells is for --format csv")
        }
        if fromCollector && !daily {
            throw ValidationError(
                "--from-collector needs --daily: the collector serves daily rollups and sleep nights, not samples; export samples from this store"
            )
        }
    }

    func run() throws {
        let request = ExportRequest(
            format: format, metrics: metric, from: days.first, to: days.last, source: source, daily: daily, bulk: bulk,
            output: output, csvFormulas: csvRawCells ? .raw : .neutralized)
        let catalog = try global.loadCatalog()
        let status = StatusLine()
        let started = Date()
        let progress: (Int, String) -> Void = { count, at in
            status.show(
                "Exporting: \(count) \(daily ? "days" : "samples") (\(at))", elapsed: Date().timeIntervalSince(started))
        }
        let summary = try CommandFailure.wrapping { () throws -> ExportSummary in
            if fromCollector {
                let sink = try sinkOptions.resolve(store: global.storeDirectory.path).make()
                return try DailyExport(request: request).run(collector: sink, catalog: catalog)
            }
            if daily {
                return try DailyExport(request: request).run(
                    store: global.storeDirectory, catalog: catalog, progress: progress)
            }
            return try SampleExport(request: request).run(
                store: global.storeDirectory, catalog: catalog, progress: progress)
        }
        status.finish()
        try show(summary)
    }

    private func show(_ summary: ExportSummary) throws {
        try SummaryPrinter.show(summary, json: json, dataOnStandardOutput: summary.output == "-") { summary in
            let what = summary.content == "daily" ? "daily rollups" : "samples"
            var line = "Exported \(summary.records) \(what)"
            if let nights = summary.sleepNights { line += " and \(nights) sleep nights" }
            line += " of \(summary.byMetric.count) metrics as \(summary.format.rawValue)"
            if let observations = summary.observations { line += " (\(observations) Observations)" }
            line += summary.output == "-" ? " to standard output" : " to \(summary.output)"
            line += String(format: " (%.1f MB in %.2f s)", Double(summary.bytes) / 1_048_576, summary.seconds)
            if let missing = summary.withoutLOINC, !missing.isEmpty {
                line +=
                    "\n\(missing.count) metrics have no LOINC code; their Observations carry healthetl's metric code only: "
                    + missing.joined(separator: ", ")
            }
            return line
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
