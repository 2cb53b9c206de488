import Foundation
import HealthETLCore
import HealthETLSQLite
import HealthETLZip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a synthetic phone's Health Connect export as the phone does: the module's own schema
/// (version 14, its tables, columns, stored units and enums), filled with two apps' overlapping
/// steps, a watch's heart-rate series, sleep with stages, runs with laps and a route, meals with
/// nutrients (unset ones as `Double.MIN_VALUE`), weigh-ins (some typed in by hand), the app
/// priority per category, and a trip abroad that changes the UTC offset; zipped as the single
/// entry `health_connect_export.db`.
///
/// With `previous`, it writes that export's next snapshot a day later instead: some records
/// deleted (rows gone, child rows with them) and some edited in place.
public final class HealthConnectExportGenerator {
    /// The last full day of data: the export is written early the next morning.
    static let lastDay = CivilDate(year: 2024, month: 12, day: 1)!
    /// The phone's home zone (UTC+1) and the trip's (UTC−5).
    static let homeOffset: Int32 = 3600
    static let tripOffset: Int32 = -18_000
    /// The Health Connect database version the schema file creates.
    static let userVersion = 14

    private let options: HealthConnectExportOptions
    private let clock: Clock

    public init(options: HealthConnectExportOptions, clock: Clock = .system) {
        self.options = options
        self.clock = clock
    }

    public func run() throws -> HealthConnectExportSummary {
        let started = clock.monotonic()
        let scratch = options.zipPath + ".db-partial"
        defer {
            unlink(scratch)
            unlink(scratch + "-journal")
        }
        var summary = HealthConnectExportSummary()
        let exported: Int64
        if let previous = options.previous {
            exported = try copyDatabase(of: previous, to: scratch) + 86_400
            let connection = try SQLiteConnection(path: scratch)
            (summary.deleted, summary.edited) = try HealthConnectSnapshotChanges.apply(
                to: connection, at: Self.instant(ofWallClock: exported))
            summary.rows = try Self.rowCounts(connection)
        } else {
            _ = try PrivateFile(path: scratch, fresh: true)
            let connection = try SQLiteConnection(path: scratch)
            try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
            try connection.execute(try Self.schema())
            var writer = HealthConnectRowWriter(connection: connection, seed: options.seed)
            try connection.writeTransaction {
                try writer.writeReferenceRows()
                let first = Self.lastDay.adding(days: Int64(1 - max(1, options.days)))
                for index in 0..<max(1, options.days) {
                    let day = first.adding(days: Int64(index))
                    try writer.writeDay(
                        day, offset: Self.offset(on: day), heartRateInterval: max(1, options.heartRateInterval))
                }
            }
            try connection.execute("PRAGMA user_version = \(Self.userVersion)")
            summary.rows = try Self.rowCounts(connection)
            // The export is written at 03:00 local the morning after the last day.
            exported = (Self.lastDay.daysSinceEpoch + 1) * 86_400 + 3 * 3600
        }
        summary.databaseBytes = Int64((try? FileManager.default.attributesOfItem(atPath: scratch)[.size] as? Int) ?? 0)
        summary.zipBytes = Int64(try Self.zip(scratch, to: options.zipPath, wallClock: exported))
        summary.zipPath = options.zipPath
        summary.exportedAt = Self.instant(ofWallClock: exported).description
        summary.seconds = clock.secondsSince(started)
        return summary
    }

    /// The instant the phone's wall clock showed `seconds` (since 1970 on that clock) at home.
    static func instant(ofWallClock seconds: Int64) -> Instant {
        Instant(secondsSinceEpoch: seconds - Int64(homeOffset))
    }

    /// The trip: the last week but one is spent at UTC−5 (flying out and back changes the offset).
    static func offset(on day: CivilDate) -> Int32 {
        let back = lastDay.daysSinceEpoch - day.daysSinceEpoch
        return (7...9).contains(back) ? tripOffset : homeOffset
    }

    /// The module's schema at version 14, as AOSP's helpers create it (a file of this target).
    static func schema() throws -> String {
        guard let url = Bundle.module.url(forResource: "health-connect-v14", withExtension: "sql") else {
            throw GeneratorError("the Health Connect schema (health-connect-v14.sql) is missing from this build")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func rowCounts(_ connection: SQLiteConnection) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let tables = try connection.prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        while try tables.step() {
            let name = tables.text(0) ?? ""
            let count = try connection.scalar("SELECT count(*) FROM \"\(name)\"") ?? 0
            if count > 0 { counts[name] = Int(count) }
        }
        return counts
    }

    /// Copies an earlier export's database out of its zip; returns its wall-clock export time.
    private func copyDatabase(of previous: String, to scratch: String) throws -> Int64 {
        let archive = try ZipArchive(path: previous)
        guard let entry = archive.entries.first(where: { $0.name == HealthConnectExportNames.entry }),
            let clock = entry.modified.wallClock,
            let date = CivilDate(year: clock.year, month: clock.month, day: clock.day)
        else {
            throw GeneratorError(
                "\(previous) is not a Health Connect export this generator wrote (no dated \(HealthConnectExportNames.entry))"
            )
        }
        let file = try PrivateFile(path: scratch, fresh: true)
        try archive.read(entry) { try file.write($0) }
        try file.close()
        return date.secondsSinceEpoch(hour: clock.hour, minute: clock.minute, second: clock.second)
    }

    /// Zips the database as the phone's single entry, dated by the phone's wall clock.
    private static func zip(_ database: String, to path: String, wallClock seconds: Int64) throws -> UInt64 {
        let date = CivilDate(daysSinceEpoch: seconds / 86_400)
        let time = Int(seconds % 86_400)
        let writer = try ZipWriter(
            path: path,
            modified: ZipTimestamp(
                year: date.year, month: date.month, day: date.day, hour: time / 3600, minute: time / 60 % 60,
                second: time % 60))
        try writer.beginEntry(HealthConnectExportNames.entry)
        guard let input = FileHandle(forReadingAtPath: database) else {
            throw GeneratorError("cannot read back \(database)")
        }
        defer { try? input.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try chunk.withUnsafeBytes { try writer.write($0) }
        }
        try writer.endEntry()
        return try writer.finish()
    }
}
