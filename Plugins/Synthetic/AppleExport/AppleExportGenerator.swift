import Foundation
import HealthETLCore
import HealthETLZip

/// What an export run wrote.
public struct AppleExportSummary: Sendable {
    public var records = 0
    public var recordsByType: [(String, Int)] = []
    public var duplicates = 0
    public var correlations = 0
    public var correlationRecords = 0
    public var workouts = 0
    public var workoutEvents = 0
    public var routes = 0
    public var activitySummaries = 0
    public var hrvBeats = 0
    /// Records of the catalog tour (`AppleExportOptions.everyType`), beyond `records`.
    public var everyTypeRecords = 0
    public var days = 0
    public var firstDay = ""
    public var lastDay = ""
    /// The bare export.xml written, if one was asked for (`AppleExportOptions.out`).
    public var xmlPath: String?
    /// Uncompressed bytes of export.xml (in the file, the zip, or both).
    public var bytes: Int64 = 0
    public var zipPath: String?
    /// Size of the finished zip.
    public var zipBytes: Int64 = 0
    /// Uncompressed bytes of all GPX routes.
    public var routeBytes: Int64 = 0
    public var seconds = 0.0
    public var xmlSeconds = 0.0

    public var json: String {
        var fields: [String] = [
            "\"records\":\(records)",
            "\"duplicates\":\(duplicates)",
            "\"correlations\":\(correlations)",
            "\"correlation_records\":\(correlationRecords)",
            "\"workouts\":\(workouts)",
            "\"workout_events\":\(workoutEvents)",
            "\"routes\":\(routes)",
            "\"activity_summaries\":\(activitySummaries)",
            "\"hrv_beats\":\(hrvBeats)",
            "\"every_type_records\":\(everyTypeRecords)",
            "\"days\":\(days)",
            "\"first_day\":\(JSONText.quoted(firstDay))",
            "\"last_day\":\(JSONText.quoted(lastDay))",
        ]
        if let xmlPath { fields.append("\"xml\":\(JSONText.quoted(xmlPath))") }
        fields.append("\"bytes\":\(bytes)")
        if let zipPath {
            fields.append("\"zip\":\(JSONText.quoted(zipPath))")
            fields.append("\"zip_bytes\":\(zipBytes)")
        }
        fields.append("\"route_bytes\":\(routeBytes)")
        fields.append("\"xml_s\":\((xmlSeconds * 1000).rounded() / 1000)")
        fields.append("\"elapsed_s\":\((seconds * 1000).rounded() / 1000)")
        let types = recordsByType.map { "\(JSONText.quoted($0.0)):\($0.1)" }.joined(separator: ",")
        fields.append("\"record_types\":{\(types)}")
        return "{" + fields.joined(separator: ",") + "}"
    }
}

/// Plans the span of days that holds exactly N top-level Records, then writes the export in
/// Apple's order: every Record grouped by type, then Correlations, Workouts, ActivitySummaries.
///
/// export.xml streams in one pass to the bare file, the zip entry, or both; the GPX routes follow
/// it, each rendered once into its file and its zip entry.
public final class AppleExportGenerator {
    private let options: AppleExportOptions
    private let model: HealthModel
    /// Times the run (`AppleExportSummary.seconds`); the export's content never depends on it.
    private let clock: Clock
    /// The export's last full day of data (it was exported the next morning).
    private let lastDay = CivilTime.days(year: 2024, month: 12, day: 1)
    /// When the export was made (see `Vocabulary.exportDate`): every zip entry carries it.
    static let exportTimestamp = ZipTimestamp(year: 2024, month: 12, day: 2, hour: 7, minute: 41, second: 27)
    /// The folder the Health app's export.zip holds everything in.
    static let zipFolder = "apple_health_export/"

    public init(options: AppleExportOptions, clock: Clock = .system) {
        self.options = options
        self.clock = clock
        self.model = HealthModel(seed: options.seed, samplesPerDay: options.samplesPerDay)
    }

    public func run() throws -> AppleExportSummary {
        guard options.out != nil || options.zipPath != nil else {
            throw GeneratorError("nothing to write: give an export.xml path (out), a zip path, or both")
        }
        let started = clock.monotonic()
        var summary = AppleExportSummary()
        let streams = HealthType.allCases
        var scratch: [SimulatedRecord] = []
        scratch.reserveCapacity(4096)

        // 1. Count backwards from the last day until the days hold at least N records.
        var totals = [Int](repeating: 0, count: streams.count)
        var total = 0
        var firstDay = lastDay + 1
        while total < options.records {
            firstDay -= 1
            let plan = model.plan(firstDay)
            for stream in streams {
                scratch.removeAll(keepingCapacity: true)
                model.generate(stream, plan: plan, into: &scratch)
                var count = 0
                for record in scratch { count += record.duplicate ? 2 : 1 }
                totals[stream.rawValue] += count
                total += count
            }
        }
        // 2. The surplus comes off the start of the types (not correlation members), in
        //    proportion to their size: the dense streams begin a few hours later.
        let trims = allocateTrim(surplus: total - options.records, totals: totals)
        model.unitSwitchDay = firstDay + (lastDay - firstDay) * 3 / 5

        let routeDirectory = try prepareRouteDirectory()
        // If anything below throws, the zip writer goes with this scope and removes its partial file.
        let zip = try options.zipPath.map {
            try ZipWriter(path: $0, modified: Self.exportTimestamp)
        }
        var sinks: [ByteSink] = []
        if let path = options.out { sinks.append(try PrivateFile(path: path)) }
        if let zip { sinks.append(try ZipEntrySink(zip: zip, name: Self.zipFolder + "export.xml")) }
        let out = ByteWriter(sinks: sinks)
        let writer = ExportWriter(out: out, model: model)
        writer.prolog()

        // 3. Records, grouped by type, each type in time order.
        for stream in streams {
            var skip = trims[stream.rawValue]
            var written = 0
            for day in firstDay...lastDay {
                let plan = model.plan(day)
                scratch.removeAll(keepingCapacity: true)
                model.generate(stream, plan: plan, into: &scratch)
                scratch.sort {
                    $0.start != $1.start ? $0.start < $1.start : $0.source.rawValue < $1.source.rawValue
                }
                for record in scratch {
                    var copies = record.duplicate ? 2 : 1
                    var skipped = false
                    while skip > 0 && copies > 0 {
                        skip -= 1
                        copies -= 1
                        skipped = true
                    }
                    for _ in 0..<copies { writer.record(record, stream: stream, indent: 1) }
                    written += copies
                    if record.duplicate && !skipped { summary.duplicates += 1 }
                }
            }
            summary.recordsByType.append((stream.identifier, written))
            summary.records += written
        }
        guard summary.records == options.records else {
            throw GeneratorError("internal error: wrote \(summary.records) records, not \(options.records)")
        }
        // The tour's records sit at noon of the last day, after the model's records.
        let tour = options.everyType.map(CatalogTour.init(catalog:))
        let tourStart = Int64(lastDay) * 86_400 + 12 * 3_600 - CivilTime.exportOffsetSeconds
        if let tour { summary.everyTypeRecords = tour.writeRecords(to: out, from: tourStart) }

        // 4. Correlations: their member Records were also written at top level above.
        for day in firstDay...lastDay {
            guard let reading = model.bloodPressure(day) else { continue }
            writer.bloodPressure(reading)
            summary.correlations += 1
            summary.correlationRecords += 2
        }

        if let tour {
            tour.writeMeal(to: out, at: tourStart)
            summary.correlations += 1
            summary.correlationRecords += tour.meal.count
        }

        // 5. Workouts. Their GPX routes are written after export.xml (step 7): a zip holds one
        //    entry at a time, and export.xml comes first.
        var routes: [(name: String, workout: WorkoutPlan)] = []
        for day in firstDay...lastDay {
            guard let workout = model.plan(day).workout else { continue }
            let routeName = RouteWriter.fileName(for: workout)
            summary.workoutEvents += writer.workout(
                workout, day: day, heartRates: model.workoutHeartRates(workout, day: day),
                routeName: routeName)
            summary.workouts += 1
            routes.append((routeName, workout))
        }

        // 6. One ActivitySummary per day, consistent with the day's watch records.
        for day in firstDay...lastDay {
            let plan = model.plan(day)
            var kilocalories = 0.0
            scratch.removeAll(keepingCapacity: true)
            model.generate(.activeEnergyBurned, plan: plan, into: &scratch)
            for record in scratch where record.source == .watch {
                let value = Double(record.value) / Double(ByteWriter.powersOfTen[Int(record.scale)])
                kilocalories += record.unit == .kilojoule ? value / 4.184 : value
            }
            scratch.removeAll(keepingCapacity: true)
            model.generate(.appleExerciseTime, plan: plan, into: &scratch)
            let exercise = scratch.count
            scratch.removeAll(keepingCapacity: true)
            model.generate(.appleStandHour, plan: plan, into: &scratch)
            let stood = scratch.reduce(0) { $0 + ($1.value == CategoryValue.standHourStood.rawValue ? 1 : 0) }
            writer.activitySummary(
                day: day, activeKilocalories: kilocalories, exerciseMinutes: exercise, standHours: stood)
            summary.activitySummaries += 1
        }

        writer.epilog()
        try out.finish()
        summary.hrvBeats = writer.hrvBeats
        summary.bytes = out.bytesWritten
        summary.xmlPath = options.out
        summary.days = lastDay - firstDay + 1
        summary.firstDay = Self.dayText(firstDay)
        summary.lastDay = Self.dayText(lastDay)
        summary.xmlSeconds = clock.secondsSince(started)

        // 7. GPX routes, sorted by name (byte order, as the Health app's zip lists them), each
        //    rendered once into its file and its zip entry.
        if routeDirectory != nil || zip != nil {
            routes.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            for route in routes {
                var sinks: [ByteSink] = []
                if let routeDirectory {
                    sinks.append(try PrivateFile(path: routeDirectory + "/" + route.name))
                }
                if let zip {
                    sinks.append(
                        try ZipEntrySink(zip: zip, name: Self.zipFolder + "workout-routes/" + route.name))
                }
                let gpx = ByteWriter(sinks: sinks, capacity: 1 << 16)
                RouteWriter.write(
                    route.workout, to: gpx, interval: options.routeInterval, seed: route.workout.uuidHigh)
                try gpx.finish()
                summary.routeBytes += gpx.bytesWritten
                summary.routes += 1
            }
        }

        if let zip, let zipPath = options.zipPath {
            summary.zipBytes = Int64(try zip.finish())
            summary.zipPath = zipPath
        }
        summary.seconds = clock.secondsSince(started)
        return summary
    }

    private func allocateTrim(surplus: Int, totals: [Int]) -> [Int] {
        var trims = [Int](repeating: 0, count: totals.count)
        guard surplus > 0 else { return trims }
        let eligible = HealthType.allCases.filter { !$0.isCorrelationMember && totals[$0.rawValue] > 0 }
        let eligibleTotal = eligible.reduce(0) { $0 + totals[$1.rawValue] }
        var remaining = surplus
        for stream in eligible {
            let share = surplus * totals[stream.rawValue] / eligibleTotal
            trims[stream.rawValue] = share
            remaining -= share
        }
        for stream in eligible.sorted(by: { totals[$0.rawValue] > totals[$1.rawValue] }) where remaining > 0 {
            let room = totals[stream.rawValue] - trims[stream.rawValue]
            let take = min(room, remaining)
            trims[stream.rawValue] += take
            remaining -= take
        }
        return trims
    }

    /// Creates the directory for GPX files (`routesDirectory`), if one was asked for.
    private func prepareRouteDirectory() throws -> String? {
        guard let path = options.routesDirectory else { return nil }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw GeneratorError("cannot create \(path): \(error.localizedDescription)")
        }
        return path
    }

    private static func dayText(_ day: Int) -> String {
        let date = CivilTime.date(days: day)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(date.year)-\(two(date.month))-\(two(date.day))"
    }
}
