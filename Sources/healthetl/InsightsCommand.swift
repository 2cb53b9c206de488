import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLRuntime

/// `healthetl insights`: baselines, trends and the days that are above or below the usual.
struct InsightsCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "insights",
        abstract: "Show baselines, trends and flagged deviations per metric: what is above or below your usual.",
        discussion: """
            Per rule metric and day: the baseline (median and MAD of the previous 28 days, from 14
            days of data), the deviation in MADs, and the 7-day against the 28-day mean. Insights
            come from the documented rules (`--json` lists them with their thresholds). They
            describe the data, never a diagnosis. Read as the collector computed them (kept fresh by
            `follow`, `upload` and `sync`), or computed here with --local, and whenever no
            collector has been followed yet. The range is the 28 days up to --to (default: today,
            UTC), or from --from.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    /// Default: the 28 days up to today (UTC).
    @OptionGroup var days: DayRangeOptions

    @Flag(help: "Compute from the local store instead of reading what the collector computed.")
    var local = false

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    func run() throws {
        guard let days = InsightQuery.days(first: days.first, last: days.last) else {
            throw CommandFailure("--from must not be after --to", exitCode: .usage)
        }
        let listing = try CommandFailure.wrapping {
            try InsightQuery(days: days, local: local).run(
                store: global.storeDirectory, catalog: try global.loadCatalog())
        }
        if json { return try JSONOutput.print(listing) }
        print(
            "Insights \(listing.from) to \(listing.to) (\(listing.origin == .local ? "computed here" : "from the collector"))"
        )
        if listing.insights.isEmpty {
            print(listing.days.isEmpty ? "No data for the rule metrics in that range." : "Nothing unusual.")
        } else {
            var table = TextTable("RULE", "DAYS", "OBSERVED", "USUAL", "DEVIATION", "")
            for insight in listing.insights {
                table.add(
                    insight.rule, "\(insight.first)…\(insight.last)", Self.number(insight.observed, insight.unit),
                    Self.number(insight.baseline, insight.unit), String(format: "%+.2f", insight.deviation),
                    insight.text)
            }
            print(table.rendered)
        }
        // The latest day of each metric: where it stands against its usual.
        var latest: [String: InsightDay] = [:]
        for day in listing.days { latest[day.metric] = day }
        guard !latest.isEmpty else { return }
        var table = TextTable("METRIC", "DAY", "VALUE", "USUAL (MEDIAN ± MAD)", "DEVIATION", "7D / 28D MEAN")
        for metric in latest.keys.sorted() {
            guard let day = latest[metric] else { continue }
            table.add(
                metric, day.day.description, String(format: "%.1f", day.value),
                day.baseline.map { String(format: "%.1f ± %.1f (%d days)", $0.median, $0.mad, $0.days) }
                    ?? "too little data",
                day.deviation.map { String(format: "%+.1f MAD", $0) } ?? "",
                day.mean7.flatMap { week in day.mean28.map { String(format: "%.1f / %.1f", week, $0) } } ?? "")
        }
        print(table.rendered)
    }

    private static func number(_ value: Double, _ unit: String) -> String { String(format: "%.1f %@", value, unit) }
}
