import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLRuntime

/// `healthetl projections`: daily rollups and sleep nights, as refreshed from the collector
/// (with each key's freshness) or computed here with `--local`.
struct ProjectionsCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "projections",
        abstract: "Show daily rollups and sleep nights with their freshness, or compute them offline with --local.",
        discussion: """
            Freshness: fresh (as the collector computed it after the last upload), stale (changed
            here and not delivered yet), computing (delivered, not refreshed yet: the next upload
            or sync fetches it). --local computes from the store with the same code the collector
            runs, and needs no collector.
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Option(help: ArgumentHelp("One metric (default: every metric with data in the range).", valueName: "metric"))
    var metric: String?

    @Option(help: ArgumentHelp("First local day, YYYY-MM-DD (default: 6 days before --to).", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Last local day, YYYY-MM-DD (default: today, UTC).", valueName: "date"))
    var to: String?

    @Flag(help: "Compute from the local store instead of showing what the collector computed.")
    var local = false

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CivilDate(text: value) == nil { throw ValidationError("\(name) takes a date, YYYY-MM-DD") }
        }
    }

    func run() throws {
        guard
            let days = ProjectionQuery.days(
                first: from.flatMap { CivilDate(text: $0) }, last: to.flatMap { CivilDate(text: $0) })
        else { throw CommandFailure("--from must not be after --to", exitCode: .usage) }
        let query = ProjectionQuery(metric: metric, days: days, local: local)
        let listing = try CommandFailure.wrapping {
            try query.run(store: global.storeDirectory, catalog: try global.loadCatalog())
        }
        try show(listing)
    }

    private func show(_ listing: ProjectionListing) throws {
        if json { return try JSONOutput.print(listing) }
        print(
            "Projections \(listing.from) to \(listing.to) (\(listing.origin == .local ? "computed here" : "from the collector"))"
        )
        if listing.days.isEmpty {
            print(
                listing.origin == .local
                    ? "No samples in that range."
                    : "None stored yet: `healthetl upload` refreshes them, or use --local.")
        } else {
            var table = TextTable("METRIC", "DAY", "SUM / AVG", "MIN", "MAX", "COUNT", "SOURCES", "FRESHNESS")
            func number(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "" }
            for day in listing.days {
                let rollup = day.rollup
                table.add(
                    rollup.metric, rollup.day, number(rollup.sum ?? rollup.avg), number(rollup.min), number(rollup.max),
                    String(rollup.count), String(rollup.sources.count), day.freshness)
            }
            print(table.rendered)
        }
        guard !listing.nights.isEmpty else { return }
        var table = TextTable("NIGHT", "SOURCE", "IN BED", "ASLEEP", "CORE", "DEEP", "REM", "AWAKE")
        func hours(_ seconds: Double) -> String { String(format: "%.2f h", seconds / 3600) }
        for night in listing.nights {
            table.add(
                night.night, night.source, hours(night.inBedSeconds), hours(night.asleepSeconds),
                hours(night.coreSeconds),
                hours(night.deepSeconds), hours(night.remSeconds), hours(night.awakeSeconds))
        }
        print(table.rendered)
    }
}
