import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLStore
import HealthETLWire

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

    struct Day: Encodable {
        let rollup: WireDailyRollup
        let freshness: String

        func encode(to encoder: any Encoder) throws {
            try rollup.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(freshness, forKey: .freshness)
        }

        private enum Key: String, CodingKey { case freshness }
    }

    struct Listing: Encodable {
        let from: String
        let to: String
        let origin: String
        let days: [Day]
        let nights: [WireSleepNight]
    }

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, CivilDate(text: value) == nil { throw ValidationError("\(name) takes a date, YYYY-MM-DD") }
        }
    }

    func run() throws {
        let last =
            to.flatMap { CivilDate(text: $0) }
            ?? CivilDate(
                daysSinceEpoch: Clock.system.now().millisecondsSinceEpoch.floorDivided(by: 86_400_000).quotient)
        let first = from.flatMap { CivilDate(text: $0) } ?? last.adding(days: -6)
        guard first <= last else { throw CommandFailure("--from must not be after --to", exitCode: .usage) }
        let catalog = try global.loadCatalog()
        if let metric, catalog.metric(named: metric) == nil {
            throw CommandFailure(
                "the catalog has no metric \(metric); `healthetl metrics` lists them", exitCode: .usage)
        }
        do {
            let store = try global.openStore()
            let listing =
                try local
                ? computed(store, catalog: catalog, days: first...last)
                : stored(store, catalog: catalog, days: first...last)
            try show(listing)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(error)
        }
    }

    private func metricNames(_ catalog: MetricCatalog) -> [String] {
        if let metric, let resolved = catalog.metric(named: metric) { return [resolved.id] }
        return catalog.metrics.map(\.id).sorted()
    }

    private func stored(_ store: Store, catalog: MetricCatalog, days: ClosedRange<CivilDate>) throws -> Listing {
        let counts = try store.uploadCounts()
        let undelivered = (counts[.pending] ?? 0) + (counts[.failed] ?? 0) + (counts[.inFlight] ?? 0)
        var rows: [Day] = []
        for name in metricNames(catalog) {
            for (rollup, _, dirty) in try store.dailyProjections(metric: name, days: days) {
                let freshness = !dirty ? "fresh" : undelivered > 0 ? "stale" : "computing"
                rows.append(
                    Day(
                        rollup: WireDailyRollup(rollup, computedAt: rollup.computedAt?.description ?? ""),
                        freshness: freshness))
            }
        }
        let nights =
            metric == nil || metric == SleepNightCalculator.metric
            ? try store.sleepProjections(nights: days).map {
                WireSleepNight($0.night, computedAt: $0.night.computedAt?.description ?? "")
            } : []
        return Listing(
            from: days.lowerBound.description, to: days.upperBound.description, origin: "collector", days: rows,
            nights: nights)
    }

    private func computed(_ store: Store, catalog: MetricCatalog, days: ClosedRange<CivilDate>) throws -> Listing {
        let stored = try StoreConfiguration.load(store: global.resolvedStorePath)
        let projections = LocalProjections(
            catalog: catalog, priority: SourcePriority(preferred: stored.sourcePriority ?? []))
        let computed = try projections.compute(store, metrics: metricNames(catalog), days: days)
        let now = Clock.system.now().description
        return Listing(
            from: days.lowerBound.description, to: days.upperBound.description, origin: "local",
            days: computed.days.map { Day(rollup: WireDailyRollup($0, computedAt: now), freshness: "local") },
            nights: computed.nights.map { WireSleepNight($0, computedAt: now) })
    }

    private func show(_ listing: Listing) throws {
        if json { return try JSONOutput.print(listing) }
        print(
            "Projections \(listing.from) to \(listing.to) (\(listing.origin == "local" ? "computed here" : "from the collector"))"
        )
        if listing.days.isEmpty {
            print(
                listing.origin == "local"
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
