import HealthETLCore
import HealthETLZip

/// Source adapter `fit`: FIT files as Garmin, Wahoo, Coros, Polar and Suunto devices write them,
/// and the archives they come in (a copied `GARMIN/` folder, Garmin Connect's export with its
/// nested zips, Strava's bulk export of `.fit.gz`). Activities become workouts with laps and
/// route and their one-second samples; monitoring files give steps, energy and distance as
/// deltas of their counters, heart rate, stress, respiration and SpO2; sleep files give stages;
/// scales and blood-pressure monitors one person's measurements.
///
/// The decoder is written here from the published FIT protocol and profile. Each FIT file is
/// held whole (they are small) so its CRC is checked before anything of it is read: a file
/// failing it is refused whole; one cut off is read up to the cut.
///
/// Files overlap between exports, so this is no snapshot: a record's identity is its content.
/// The stream is named after the input's files and sizes, so a read resumes (by file and
/// position) only on the same files, and a folder that gained files is read again, what was
/// stored before counted as duplicates.
public struct FITAdapter: SourceAdapter {
    public static let name = "fit"
    public static let summary =
        "FIT files from Garmin, Wahoo, Coros, Polar and Suunto devices: a .fit or .fit.gz, a folder (GARMIN/), "
        + "Garmin Connect's or Strava's export zip"
    public static let capabilities: SourceCapabilities = [.exports, .resumable]
    public static let settings = [
        PluginSetting(
            "person",
            "the person of a scale shared by several whose readings are imported: their user_profile_index (default 0)")
    ]

    public init() {}

    public func recognize(_ input: SourceInput) -> SourceRecognition {
        FITInput.recognize(input.path)
    }

    public func read(_ input: SourceInput, into handler: inout some SourceEventHandler) throws -> SourceReadReport {
        let person = try input.settings.integer("person") ?? 0
        guard person >= 0 else {
            throw PluginSettingsError(section: input.settings.section, key: "person", expected: "0 or more")
        }
        let (units, notRead) = try FITInput.units(at: input.path)
        let stream = Self.streamName(of: units, root: input.path)
        // The input's "now" is when its newest file was written (a device's last sync, an
        // export's making), not when it is read: the same files fall in the same lanes whenever
        // they are read, so a run resumed after a crash ends as a clean one does.
        let now = min(FITInput.newestModification(at: input.path) ?? input.readAt, input.readAt)
        let resumeAt = input.resumePosition(of: stream)
        let end = Int64(units.count) << FITReadSession.unitShift
        try handler.receive(
            .streamStarted(
                stream: stream, now: now, isFullSnapshot: false, endPosition: end, positions: .files))
        if resumeAt > 0 { try handler.receive(.resumed(at: min(resumeAt, end))) }
        var events = handler
        let session = FITReadSession(
            catalog: try MetricCatalog.bundled(), person: UInt64(person),
            hotSince: now.adding(seconds: -input.hotWindowSeconds), resumeAt: resumeAt, stream: stream
        ) { try events.receive($0) }
        for (index, unit) in units.enumerated() where Int64(index + 1) << FITReadSession.unitShift > resumeAt {
            session.beginUnit(index)
            do {
                try unit.read(session)
            } catch let error as FITInputError {
                session.problem(error.description)
            } catch let error as ZipError {
                session.problem("\(unit.name): \(error)")
            }
            try session.endUnit(index)
        }
        handler = events
        var warnings = session.warnings
        for (kind, count) in notRead { warnings["not_read:" + kind, default: 0] += count }
        if units.isEmpty {
            return SourceReadReport(complete: false, warnings: warnings, problem: "\(input.path) holds no FIT file")
        }
        return SourceReadReport(
            complete: session.problems.isEmpty, warnings: warnings,
            problem: session.problems.isEmpty ? nil : session.problems.joined(separator: "; "))
    }

    /// `fit:` and a digest of the input's units (names within the input, and sizes): the same
    /// files give the same stream however the path to them was spelled.
    static func streamName(of units: [FITInputUnit], root: String) -> String {
        var digest = FNV1a()
        for unit in units {
            digest.add((unit.name.hasPrefix(root) ? String(unit.name.dropFirst(root.count)) : unit.name).utf8)
            digest.add([0])
            digest.add(String(unit.size).utf8)
            digest.add([0])
        }
        return name + ":" + digest.hex
    }
}
