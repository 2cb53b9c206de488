import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLRuntime

/// `healthetl report`: the self-contained HTML report.
struct ReportCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a self-contained HTML report with charts (opens in any browser, prints well).",
        discussion: """
            Daily steps by source, resting heart rate, heart rate variability, sleep by stage,
            weight, workouts, data coverage per source and day, and the import quality. One file:
            no script, no network request, no external font. The daily figures are the ones
            `projections --local` computes. By default (no --from, --to) it covers the year up to
            the last sample.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @OptionGroup var days: DayRangeOptions

    @Option(name: .customLong("out"), help: ArgumentHelp("The HTML file, or - for standard output.", valueName: "path"))
    var output = "report.html"

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    func run() throws {
        let request = HTMLReportRequest(from: days.first, to: days.last, output: output)
        let summary = try CommandFailure.wrapping {
            try HTMLReportWriter(request: request).run(store: global.storeDirectory, catalog: try global.loadCatalog())
        }
        try SummaryPrinter.show(summary, json: json, dataOnStandardOutput: summary.output == "-") { summary in
            let charted = summary.chartedDays.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            return "Report \(summary.from) to \(summary.to) written to \(summary.output)"
                + String(format: " (%.0f KB in %.2f s)", Double(summary.bytes) / 1024, summary.seconds)
                + "\nCharted days: \(charted.joined(separator: ", ")); workouts \(summary.workouts)"
        }
    }
}
