import Foundation
import HealthETLCore

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
    public var days = 0
    public var firstDay = ""
    public var lastDay = ""
    public var xmlPath = ""
    public var bytes: Int64 = 0
    public var zipPath: String?
    public var zipBytes: Int64 = 0
    public var routeBytes: Int64 = 0
    public var seconds = 0.0
    public var xmlSeconds = 0.0

    public var json: String {
        func quoted(_ s: String) -> String {
            var result = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case _ where scalar.value < 0x20:
                    result += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result + "\""
        }
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
            "\"days\":\(days)",
            "\"first_day\":\(quoted(firstDay))",
            "\"last_day\":\(quoted(lastDay))",
            "\"xml\":\(quoted(xmlPath))",
            "\"bytes\":\(bytes)",
        ]
        if let zipPath {
            fields.append("\"zip\":\(quoted(zipPath))")
            fields.append("\"zip_bytes\":\(zipBytes)")
        }
        fields.append("\"route_bytes\":\(routeBytes)")
        fields.append("\"xml_s\":\((xmlSeconds * 1000).rounded() / 1000)")
        fields.append("\"elapsed_s\":\((seconds * 1000).rounded() / 1000)")
        let types = recordsByType.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",")
        fields.append("\"record_types\":{\(types)}")
        return "{" + fields.joined(separator: ",") + "}"
    }
}

/// Plans the span of days that holds exactly N top-level Records, then writes the export in
/// Apple's order: every Record grouped by type, then Correlations, Workouts, ActivitySummaries.
public final class AppleExportGenerator {
    private let options: AppleExportOptions
    private let model: HealthModel
    /// The export's last full day of data (it was exported the next morning).
    private let lastDay = CivilTime.days(year: 2024, month: 12, day: 1)

    public init(options: AppleExportOptions) {
        self.options = options
        self.model = HealthModel(seed: options.seed)
    }

    public func run() throws -> AppleExportSummary {
        let clock = ContinuousClock()
        let started = clock.now
        var summary = AppleExportSummary()
        let streams = HealthType.allCases
        var scratch: [Rec] = []
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
                var n = 0
                for r in scratch { n += r.duplicate ? 2 : 1 }
                totals[stream.rawValue] += n
                total += n
            }
        }
        // 2. The surplus comes off the start of the types (not correlation members), in
        //    proportion to their size: the dense streams begin a few hours later.
        let trims = allocateTrim(surplus: total - options.records, totals: totals)
        model.unitSwitchDay = firstDay + (lastDay - firstDay) * 3 / 5

        let routeDirectory = try prepareRouteDirectory()
        let out = try ByteWriter(path: options.out)
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
                for r in scratch {
                    var copies = r.duplicate ? 2 : 1
                    var skipped = false
                    while skip > 0 && copies > 0 {
                        skip -= 1
                        copies -= 1
                        skipped = true
                    }
                    for _ in 0..<copies { writer.record(r, stream: stream, indent: 1) }
                    written += copies
                    if r.duplicate && !skipped { summary.duplicates += 1 }
                }
            }
            summary.recordsByType.append((stream.identifier, written))
            summary.records += written
        }
        guard summary.records == options.records else {
            throw GeneratorError("internal error: wrote \(summary.records) records, not \(options.records)")
        }

        // 4. Correlations: their member Records were also written at top level above.
        for day in firstDay...lastDay {
            guard let reading = model.bloodPressure(day) else { continue }
            writer.bloodPressure(reading)
            summary.correlations += 1
            summary.correlationRecords += 2
        }

        // 5. Workouts, with their GPX routes.
        for day in firstDay...lastDay {
            guard let w = model.plan(day).workout else { continue }
            let routeName = RouteWriter.fileName(for: w)
            summary.workoutEvents += writer.workout(
                w, day: day, heartRates: model.workoutHeartRates(w, day: day), routeName: routeName)
            summary.workouts += 1
            if let routeDirectory {
                summary.routeBytes += try RouteWriter.write(
                    w, path: routeDirectory + "/" + routeName, interval: options.routeInterval,
                    seed: w.syncHigh)
                summary.routes += 1
            }
        }

        // 6. One ActivitySummary per day, consistent with the day's watch records.
        for day in firstDay...lastDay {
            let plan = model.plan(day)
            var kilocalories = 0.0
            scratch.removeAll(keepingCapacity: true)
            model.generate(.activeEnergyBurned, plan: plan, into: &scratch)
            for r in scratch where r.source == .watch {
                let value = Double(r.value) / Double(ByteWriter.powersOfTen[Int(r.scale)])
                kilocalories += r.unit == .kilojoule ? value / 4.184 : value
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
        summary.xmlSeconds = (clock.now - started).seconds

        if let zipPath = options.zipPath {
            try Zipper.zip(xml: options.out, routes: routeDirectory, to: zipPath)
            summary.zipPath = zipPath
            summary.zipBytes = Zipper.size(of: zipPath)
        }
        if options.zipPath != nil, options.routesDirectory == nil, let routeDirectory {
            try? FileManager.default.removeItem(
                atPath: (routeDirectory as NSString).deletingLastPathComponent)
        }
        summary.seconds = (clock.now - started).seconds
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

    /// Where GPX files go: --routes-dir, or a staging folder beside the zip.
    private func prepareRouteDirectory() throws -> String? {
        let path: String
        if let directory = options.routesDirectory {
            path = directory
        } else if let zipPath = options.zipPath {
            path = zipPath + ".routes-\(ProcessInfo.processInfo.processIdentifier)/workout-routes"
        } else {
            return nil
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw GeneratorError("cannot create \(path): \(error.localizedDescription)")
        }
        return path
    }

    private static func dayText(_ day: Int) -> String {
        let d = CivilTime.date(days: day)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(d.year)-\(two(d.month))-\(two(d.day))"
    }
}

/// Builds export.zip the way the Health app lays it out, with python3's zipfile (deflate; ZIP64
/// when needed).
enum Zipper {
    /// Entries carry the export's timestamp, not the clock's, so the zip is reproducible too.
    static let script = """
        import os, shutil, sys, zipfile
        out, xml, routes = sys.argv[1], sys.argv[2], sys.argv[3]
        tmp = out + ".partial"
        stamp = (2024, 12, 2, 7, 41, 27)
        def add(z, path, name):
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            size = os.path.getsize(path)
            with open(path, "rb") as src, z.open(info, "w", force_zip64=size > 0x7FFFFFFF) as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as z:
            add(z, xml, "apple_health_export/export.xml")
            if routes and os.path.isdir(routes):
                for name in sorted(os.listdir(routes)):
                    add(z, os.path.join(routes, name), "apple_health_export/workout-routes/" + name)
        os.replace(tmp, out)
        """

    static func zip(xml: String, routes: String?, to path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, xml, routes ?? ""]
        do {
            try process.run()
        } catch {
            throw GeneratorError("cannot run python3 to build the zip: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GeneratorError(
                "python3 zipfile failed (status \(process.terminationStatus)) building \(path)")
        }
    }

    static func size(of path: String) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
