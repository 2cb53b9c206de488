import ArgumentParser
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime

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
    var hotWindow: TimeSpan?

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
            "Write an export instead: FORMAT PATH, \(SyntheticExport.usage).",
            valueName: "format path"))
    var export: [String] = []

    @Option(
        help: ArgumentHelp(
            "With --export health-connect: write the next export after this earlier one (a day later, some records deleted and edited).",
            valueName: "path"))
    var previous: String?

    @Option(
        help: ArgumentHelp(
            "With --export health-connect or health-auto-export: seconds between heart-rate points (default 60).",
            valueName: "seconds"))
    var heartRateInterval: Int?

    @Option(
        help: ArgumentHelp(
            "With --export health-auto-export, repeatable: summarized (HAE's Summarize Data), twelve-hour (8:04:45 PM dates), v1 (export format 1), no-envelope (no {\"data\": …}).",
            valueName: "style"))
    var haeStyle: [String] = []

    @Option(help: ArgumentHelp("With --export: top-level records to write (default 8000).", valueName: "n"))
    var records: Int?

    @Flag(
        help: ArgumentHelp(
            "With --export: also write one record of every type the catalog knows by a HealthKit identifier, and a meal."
        ))
    var everyType = false

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
        let densities = SimulationRequest.samplesPerDayRange
        if let samplesPerDay, !densities.contains(samplesPerDay) {
            throw ValidationError(
                "--samples-per-day must be between \(densities.lowerBound) and \(densities.upperBound) (a natural day holds about 990)"
            )
        }
        if previous != nil, export.first != "health-connect" {
            throw ValidationError("--previous goes with --export health-connect")
        }
        if heartRateInterval != nil, !["health-connect", "health-auto-export"].contains(export.first) {
            throw ValidationError("--heart-rate-interval goes with --export health-connect or health-auto-export")
        }
        if !haeStyle.isEmpty, export.first != "health-auto-export" {
            throw ValidationError("--hae-style goes with --export health-auto-export")
        }
        if let unknown = haeStyle.first(where: { !SyntheticExport.haeStyles.contains($0) }) {
            throw ValidationError(
                "--hae-style takes \(SyntheticExport.haeStyles.joined(separator: ", ")), not \"\(unknown)\"")
        }
        if !export.isEmpty {
            guard export.count == 2, SyntheticExport.formats.contains(export[0]) else {
                throw ValidationError("--export takes a format and a path: \(SyntheticExport.usage)")
            }
            if export[0] != "apple-health" {
                guard records == nil, !everyType, samplesPerDay == nil else {
                    throw ValidationError(
                        "--records, --every-type and --samples-per-day go with apple-health; \(export[0]) takes --days"
                    )
                }
                if let days, days < 1 { throw ValidationError("--days must be at least 1") }
                if let heartRateInterval, heartRateInterval < 1 {
                    throw ValidationError("--heart-rate-interval must be at least 1 second")
                }
            }
            if let records, records < 10 { throw ValidationError("--records must be at least 10") }
            return
        }
        guard records == nil else { throw ValidationError("--records goes with --export; use --days for the store") }
        guard !everyType else { throw ValidationError("--every-type goes with --export") }
        if let days, days < 0 { throw ValidationError("--days must be 0 or more") }
        guard people >= 1 else { throw ValidationError("--people must be at least 1") }
        if let speed, !(speed > 0 && speed.isFinite) { throw ValidationError("--speed must be a positive number") }
        if speed != nil || until != nil, !follow { throw ValidationError("--speed and --until go with --follow") }
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

    /// The options as the library takes them.
    var request: SimulationRequest {
        var request = SimulationRequest()
        request.seed = seed
        request.people = people
        request.follow = follow
        request.speed = speed
        request.origin = origin.flatMap(Self.instant)
        request.until = until.flatMap(Self.instant)
        request.historyDays = days
        request.hotWindowSeconds = hotWindow?.seconds
        request.changesPerDay = changesPerDay
        request.samplesPerDay = samplesPerDay
        request.duplicates = duplicates
        request.outOfRange = outOfRange
        request.unknownTypes = unknownTypes
        request.late = late
        request.batchSize = batchSize
        return request
    }

    func run() throws {
        if !export.isEmpty { return try writeExport(to: export[1]) }
        let simulation = Simulation(store: global.storeDirectory, catalog: try global.loadCatalog())
        let stop = StopSignal()
        let signals = SignalWatcher(stop: stop)
        defer { signals.cancel() }
        let progress = LaneProgress(enabled: !json)
        let outcome: Simulation.Outcome
        do {
            outcome = try simulation.run(
                request, stop: stop,
                realTimeProblem: { skipped, error in
                    let reason = CommandFailure(error).message
                    printError(
                        skipped
                            ? "real-time upload skipped: \(reason)"
                            : "real-time upload failed: \(reason); `healthetl upload` sends it later")
                }, progress: progress.report)
        } catch {
            progress.finish()
            throw CommandFailure(error)
        }
        progress.finish()
        if let report = outcome.realTime { RealTimeUpload.describe(report) }
        let report = SimulationSummary(outcome.ingest)
        if json {
            try JSONOutput.print(report)
        } else {
            print(report.rendered)
        }
    }

    private func writeExport(to path: String) throws {
        var request = SyntheticExport.Request(format: export[0], path: path)
        request.seed = seed
        request.records = records
        request.days = days
        request.samplesPerDay = samplesPerDay
        request.heartRateInterval = heartRateInterval
        request.previous = previous
        request.haeStyles = Set(haeStyle)
        request.everyType = everyType ? try global.loadCatalog() : nil
        let written = try CommandFailure.wrapping { try SyntheticExport.write(request) }
        print(json ? written.json : written.text)
    }

    static func instant(_ text: String) -> Instant? {
        let full = text.count == 10 ? text + "T00:00:00Z" : text
        return TimestampParser.parse(full)?.instant
    }
}
