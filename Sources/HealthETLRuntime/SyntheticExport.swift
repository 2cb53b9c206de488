import Foundation
import HealthETLCore
import Synthetic

/// `simulate --export FORMAT PATH`: a simulated phone's file in one of the real formats the sources
/// read — Apple Health's export (a zip streamed straight into the archive, or a bare export.xml
/// when PATH does not end in `.zip`), a Health Connect export zip (or the next one after an
/// earlier), a Health Auto Export JSON file, or a Garmin watch's FIT files (a zip or a folder
/// laid out as its GARMIN folder).
public enum SyntheticExport {
    /// The formats `--export` takes.
    public static let formats = ["apple-health", "health-connect", "health-auto-export", "fit"]
    /// Each format with an example path, as the help and its errors say it.
    public static let usage =
        "apple-health export.zip, health-connect 'Health Connect.zip', health-auto-export FILE.json"
        + " or fit garmin.zip (or a folder)"
    /// Health Auto Export's styles (`HealthAutoExportFileOptions`).
    public static let haeStyles = ["summarized", "twelve-hour", "v1", "no-envelope"]

    /// What to write; what a format does not use is ignored.
    public struct Request: Sendable {
        public var format: String
        public var path: String
        public var seed: UInt64 = 1
        /// Apple Health: top-level records (default 8,000).
        public var records: Int?
        /// Health Connect (default 14), Health Auto Export and FIT (default 7): days of data.
        public var days: Int?
        public var samplesPerDay: Int?
        /// Seconds between heart-rate points (default 60).
        public var heartRateInterval: Int?
        /// Health Connect: the export this one follows.
        public var previous: String?
        public var haeStyles: Set<String> = []
        /// Apple Health: also one record of every type this catalog knows.
        public var everyType: MetricCatalog?

        public init(format: String, path: String) {
            self.format = format
            self.path = path
        }
    }

    /// A written file: its summary as `--json` prints it, and as a line for people.
    public struct Written: Sendable {
        public var json: String
        public var text: String
    }

    public static func write(_ request: Request, clock: Clock = .system) throws -> Written {
        switch request.format {
        case "health-connect": return try writeHealthConnect(request, clock: clock)
        case "health-auto-export": return try writeHealthAutoExport(request, clock: clock)
        case "fit": return try writeFIT(request, clock: clock)
        default: return try writeAppleHealth(request, clock: clock)
        }
    }

    private static func writeAppleHealth(_ request: Request, clock: Clock) throws -> Written {
        let zip = request.path.hasSuffix(".zip")
        let options = AppleExportOptions(
            records: request.records ?? 8_000, seed: request.seed, out: zip ? nil : request.path,
            zipPath: zip ? request.path : nil, samplesPerDay: request.samplesPerDay, everyType: request.everyType)
        let summary = try AppleExportGenerator(options: options, clock: clock).run()
        let everyType =
            request.everyType == nil ? "" : ", and \(summary.everyTypeRecords) records of every catalog type"
        return Written(
            json: summary.json,
            text: "wrote \(request.path): \(summary.records) records over \(summary.days) days"
                + " (\(summary.firstDay) to \(summary.lastDay)), \(summary.workouts) workouts,"
                + " \(summary.correlations) correlations" + everyType)
    }

    private static func writeHealthConnect(_ request: Request, clock: Clock) throws -> Written {
        let options = HealthConnectExportOptions(
            zipPath: request.path, days: request.days ?? 14, seed: request.seed,
            heartRateInterval: request.heartRateInterval ?? 60, previous: request.previous)
        let summary = try HealthConnectExportGenerator(options: options, clock: clock).run()
        let text =
            request.previous != nil
            ? "wrote \(request.path): the next export of the same phone, exported \(summary.exportedAt), with"
                + " \(summary.deleted) records deleted and \(summary.edited) edited (\(summary.totalRows) rows)"
            : "wrote \(request.path): \(summary.totalRows) rows in \(summary.rows.count) tables, exported"
                + " \(summary.exportedAt)"
        return Written(json: summary.json, text: text)
    }

    private static func writeHealthAutoExport(_ request: Request, clock: Clock) throws -> Written {
        let styles = request.haeStyles
        let options = HealthAutoExportFileOptions(
            path: request.path, days: request.days ?? 7, seed: request.seed, format: styles.contains("v1") ? 1 : 2,
            summarized: styles.contains("summarized"), twelveHour: styles.contains("twelve-hour"),
            envelope: !styles.contains("no-envelope"), heartRateInterval: request.heartRateInterval ?? 60)
        let summary = try HealthAutoExportFileGenerator(options: options, clock: clock).run()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Written(
            json: String(decoding: try encoder.encode(summary), as: UTF8.self),
            text: "wrote \(request.path): \(summary.records) records (\(summary.points.values.reduce(0, +)) metric"
                + " points, \(summary.workouts) workouts), \(summary.bytes) bytes")
    }

    private static func writeFIT(_ request: Request, clock: Clock) throws -> Written {
        let options = FITExportOptions(path: request.path, days: request.days ?? 7, seed: request.seed)
        let summary = try FITExportGenerator(options: options, clock: clock).run()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let weighIns = summary.weighInsByPerson.values.reduce(0, +)
        return Written(
            json: String(decoding: try encoder.encode(summary), as: UTF8.self),
            text:
                "wrote \(request.path): \(summary.files.count) files over \(summary.days) days (\(summary.firstDay) to"
                + " \(summary.lastDay)): \(summary.sessions.count) activities (\(summary.records) records,"
                + " \(summary.hrvIntervals) RR intervals), \(summary.stepsByDay.values.reduce(0, +)) steps,"
                + " \(summary.sleepLevels) sleep levels, \(weighIns) weigh-ins of \(summary.weighInsByPerson.count)"
                + " people, \(summary.bloodPressureReadings) blood pressure readings")
    }
}
