import ArgumentParser
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLStore
import Synthetic

/// `healthetl simulate`: synthetic people's data into the three lanes, as a finished history or
/// live; or, with `--export`, an export file in a real format.
struct SimulateCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulated people's health data into the store's hot, cold and change lanes, or into an export file.",
        discussion: """
            Deterministic: the same seed and options give the same samples and ids. Without --follow,
            loads --days of finished history at full speed (the last --hot-window in the hot lane,
            older days backfilled in the cold lane, deletions and edits in the change lane).
            With --follow, the hot lane receives samples as they happen on a simulated clock running
            at --speed, while the cold lane backfills and the change lane deletes and edits; stop
            it with Ctrl-C (or SIGTERM): every cursor is committed, and running the same command
            again continues exactly where it stopped. A stream remembers the options it was created
            with (they are kept in the store).
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Option(help: ArgumentHelp("Days of history before the origin (default 30).", valueName: "n"))
    var days: Int?

    @Option(help: ArgumentHelp("Seed; the same seed gives the same data.", valueName: "n"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Simulated people, one source stream each.", valueName: "n"))
    var people = 1

    @Flag(help: "Keep running: samples arrive as the simulated clock passes them.")
    var follow = false

    @Option(
        help: ArgumentHelp("With --follow, simulated seconds per real second (default 1: real time).", valueName: "x"))
    var speed: Double?

    @Option(
        help: ArgumentHelp(
            "The simulated now when a stream is created: history ends here (default: today 00:00 UTC, or now with --follow).",
            valueName: "date"))
    var origin: String?

    @Option(help: ArgumentHelp("With --follow, stop when the simulated clock reaches this date.", valueName: "date"))
    var until: String?

    @Option(
        help: ArgumentHelp(
            "Samples ending this close to the origin arrive in the hot lane (default 7d).", valueName: "duration"))
    var hotWindow: String?

    @Option(help: ArgumentHelp("Deletions and edits per simulated day (default 4).", valueName: "n"))
    var changesPerDay: Int?

    @Option(
        help: ArgumentHelp(
            "Records in a simulated day, 800 to 40000 (default: about 990); the extra are denser background heart rate.",
            valueName: "n"))
    var samplesPerDay: Int?

    @Option(help: ArgumentHelp("Fraction of records delivered twice.", valueName: "fraction"))
    var duplicates: Double?

    @Option(help: ArgumentHelp("Fraction of records with implausible values.", valueName: "fraction"))
    var outOfRange: Double?

    @Option(help: ArgumentHelp("Fraction of records followed by one of an unknown type.", valueName: "fraction"))
    var unknownTypes: Double?

    @Option(help: ArgumentHelp("Fraction of records arriving 1–12 hours late.", valueName: "fraction"))
    var late: Double?

    @Option(help: ArgumentHelp("Records per store transaction.", valueName: "count"))
    var batchSize = 5_000

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Write an export instead: FORMAT PATH, e.g. apple-health export.zip.", valueName: "format path"))
    var export: [String] = []

    @Option(help: ArgumentHelp("With --export: top-level records to write (default 8000).", valueName: "n"))
    var records: Int?

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
        if let samplesPerDay, !SampleDensity.supported.contains(samplesPerDay) {
            throw ValidationError(
                "--samples-per-day must be between \(SampleDensity.supported.lowerBound) and \(SampleDensity.supported.upperBound) (a natural day holds about 990)"
            )
        }
        if !export.isEmpty {
            guard export.count == 2, export[0] == "apple-health" else {
                throw ValidationError(
                    "--export takes a format and a path: --export apple-health OUT.zip (apple-health is the one format)"
                )
            }
            if let records, records < 10 { throw ValidationError("--records must be at least 10") }
            return
        }
        guard records == nil else { throw ValidationError("--records goes with --export; use --days for the store") }
        if let days, days < 0 { throw ValidationError("--days must be 0 or more") }
        guard people >= 1 else { throw ValidationError("--people must be at least 1") }
        if let speed, !(speed > 0 && speed.isFinite) { throw ValidationError("--speed must be a positive number") }
        if speed != nil || until != nil, !follow { throw ValidationError("--speed and --until go with --follow") }
        if let hotWindow, DurationText.seconds(hotWindow) == nil {
            throw ValidationError("--hot-window takes a duration such as 7d, 36h or 90m, not \"\(hotWindow)\"")
        }
        if let changesPerDay, changesPerDay < 0 { throw ValidationError("--changes-per-day must be 0 or more") }
        for (name, rate) in [
            ("duplicates", duplicates), ("out-of-range", outOfRange), ("unknown-types", unknownTypes), ("late", late),
        ] {
            if let rate, !(0...1).contains(rate) { throw ValidationError("--\(name) is a fraction between 0 and 1") }
        }
        if let origin, Self.instant(origin) == nil {
            throw ValidationError("--origin takes a date such as 2026-01-01 or 2026-01-01T08:00:00Z")
        }
        if let until, Self.instant(until) == nil {
            throw ValidationError("--until takes a date such as 2026-01-02 or 2026-01-02T08:00:00Z")
        }
        guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1") }
    }

    func run() throws {
        if !export.isEmpty { return try writeExport(format: export[0], path: export[1]) }
        let catalog = try global.loadCatalog()
        let store = try global.openStore()
        let now = Clock.system.now()
        var sources: [SyntheticPerson] = []
        var clock: SimulatedClock?
        for person in 1...people {
            var settings = try settings(for: person, store: store, now: now)
            if follow {
                // One clock for everyone: the first stream's decides, the others follow it.
                let current = clock ?? Self.clock(continuing: settings, speed: speed, now: now)
                clock = current
                settings.clock = current
            }
            try store.setStreamSettings(
                settings.streamName, to: String(decoding: try JSONEncoder().encode(settings), as: UTF8.self))
            sources.append(SyntheticPerson(settings: settings, catalog: catalog))
        }
        let origin = sources[0].settings.origin
        let runClock = clock ?? SimulatedClock(simulated: origin, wall: now, speed: 0)
        let stopAt = follow ? until.flatMap(Self.instant) : origin

        let stop = StopSignal()
        let signals = SignalWatcher(stop: stop)
        defer { signals.cancel() }
        let progress = LaneProgress(enabled: !json)
        let realTime = try tierOneSender(catalog).map {
            RealTimeFollower(sender: $0, afterRow: try store.lastSampleRow(), live: follow) { error in
                printError(
                    "real-time upload failed: \(CommandFailure(error).message); `healthetl upload` sends it later")
            }
        }
        let runner = LiveIngest(
            store: store, catalog: catalog, sources: sources, simulated: runClock, until: stopAt, stop: stop,
            batchLimit: batchSize, afterCommit: { realTime?.committed($0) }, progress: progress.report)
        let summary = try runner.run()
        progress.finish()
        if let report = realTime?.finish() { RealTimeUpload.describe(report) }
        let report = SimulationReport(summary)
        if json {
            try JSONOutput.print(report)
        } else {
            print(report.rendered)
        }
    }

    /// Tier 1's sender when a sink is configured; unusable settings are said and skipped.
    private func tierOneSender(_ catalog: MetricCatalog) -> RealTimeSender? {
        do {
            return try RealTimeSender(store: global.storeDirectory, catalog: catalog)
        } catch {
            printError("real-time upload skipped: \(CommandFailure(error).message)")
            return nil
        }
    }

    /// The stream's settings: as stored when it exists (options given now must agree), else
    /// from the options.
    private func settings(for person: Int, store: Store, now: Instant) throws -> SyntheticSettings {
        let defaultOrigin =
            follow ? Instant(millisecondsSinceEpoch: now.millisecondsSinceEpoch / 1000 * 1000) : Self.startOfDay(now)
        let requested = SyntheticSettings(
            seed: seed, person: person, origin: origin.flatMap(Self.instant) ?? defaultOrigin, historyDays: days ?? 30,
            hotWindowSeconds: hotWindow.flatMap(DurationText.seconds) ?? 7 * 86_400, changesPerDay: changesPerDay ?? 4,
            samplesPerDay: samplesPerDay,
            faults: FaultRates(
                duplicate: duplicates ?? 0, outOfRange: outOfRange ?? 0, unknownType: unknownTypes ?? 0, late: late ?? 0
            ))
        guard let text = try store.streamSettings(requested.streamName) else { return requested }
        let stored: SyntheticSettings
        do {
            stored = try JSONDecoder().decode(SyntheticSettings.self, from: Data(text.utf8))
        } catch {
            throw CommandFailure(
                "the store's settings for \(requested.streamName) are unreadable (\(error)); use another --store")
        }
        let conflicts = [
            origin != nil && stored.originMilliseconds != requested.originMilliseconds ? "--origin" : nil,
            days != nil && stored.historyDays != requested.historyDays ? "--days \(stored.historyDays)" : nil,
            hotWindow != nil && stored.hotWindowSeconds != requested.hotWindowSeconds
                ? "--hot-window \(stored.hotWindowSeconds)s" : nil,
            changesPerDay != nil && stored.changesPerDay != requested.changesPerDay
                ? "--changes-per-day \(stored.changesPerDay)" : nil,
            samplesPerDay != nil && stored.samplesPerDay != requested.samplesPerDay
                ? stored.samplesPerDay.map { "--samples-per-day \($0)" } ?? "the natural samples per day" : nil,
            [duplicates, outOfRange, unknownTypes, late].contains { $0 != nil } && stored.faults != requested.faults
                ? "the same fault rates" : nil,
        ].compactMap { $0 }
        guard conflicts.isEmpty else {
            throw CommandFailure(
                "\(requested.streamName) already exists in this store with other options (it was created with "
                    + conflicts.joined(separator: ", ")
                    + "); leave those options out to continue it, or use another --seed or --store", exitCode: .usage)
        }
        return stored
    }

    /// A follow run's clock: the stream's own, continuing (time that passed while it was
    /// stopped counts, like a phone that was off), unless the speed changes or it never ran live.
    private static func clock(continuing settings: SyntheticSettings, speed: Double?, now: Instant) -> SimulatedClock {
        if let existing = settings.clock, speed == nil || speed == existing.speed { return existing }
        let from = settings.clock?.now(wall: now) ?? settings.origin
        return SimulatedClock(simulated: from, wall: now, speed: speed ?? settings.clock?.speed ?? 1)
    }

    private func writeExport(format: String, path: String) throws {
        let summary = try AppleExportWriting.write(
            to: path, records: records ?? 8_000, seed: seed, samplesPerDay: samplesPerDay)
        if json {
            print(summary.json)
        } else {
            print(
                "wrote \(path): \(summary.records) records over \(summary.days) days (\(summary.firstDay) to \(summary.lastDay)), \(summary.workouts) workouts, \(summary.correlations) correlations"
            )
        }
    }

    static func instant(_ text: String) -> Instant? {
        let full = text.count == 10 ? text + "T00:00:00Z" : text
        return TimestampParser.parse(full)?.instant
    }

    static func startOfDay(_ instant: Instant) -> Instant {
        Instant(
            millisecondsSinceEpoch: instant.millisecondsSinceEpoch.floorDivided(by: 86_400_000).quotient * 86_400_000)
    }
}
