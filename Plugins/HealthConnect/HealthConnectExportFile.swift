import Foundation
import HealthETLCore
import HealthETLZip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Health Connect export as given: the bare database, or the zip the phone writes with the
/// database as its entry. A zip's entry is streamed to a private (0600) temporary file, never
/// extracted beside the input, and removed when this is released.
final class HealthConnectExportFile {
    /// The name Health Connect gives the database inside its zip.
    static let entryName = "health_connect_export.db"

    /// The database to open.
    let databasePath: String
    /// The earliest the export can have been written: the zip entry's wall-clock time read in the
    /// most eastern zone there is (the zip records none), or a bare file's modification time.
    let writtenNoEarlierThan: Instant?
    private var temporary: String?

    /// Opens `path`, copying a zip's database out first.
    init(path: String) throws {
        guard !HealthConnectDatabase.startsWithMagic(path) else {
            databasePath = path
            temporary = nil
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
            // Any time a file system holds (tmpfs keeps a 64-bit second count); one no sample may
            // have dates nothing.
            writtenNoEarlierThan = modified.flatMap {
                Int64(exactly: ($0.timeIntervalSince1970 * 1000).rounded(.down))
            }.map(Instant.init(millisecondsSinceEpoch:)).flatMap { SampleBounds.instants.contains($0) ? $0 : nil }
            return
        }
        let archive = try Self.archive(path)
        let entry = try Self.databaseEntry(in: archive, path: path)
        let copy = try Self.copy(entry, of: archive)
        databasePath = copy
        temporary = copy
        writtenNoEarlierThan = entry.modified.wallClock.flatMap { clock in
            CivilDate(year: clock.year, month: clock.month, day: clock.day).map { date in
                Instant(
                    secondsSinceEpoch: date.secondsSinceEpoch(
                        hour: clock.hour, minute: clock.minute, second: clock.second)
                        - Self.mostEasternOffsetSeconds)
            }
        }
    }

    deinit {
        removeCopy()
    }

    /// Removes the temporary copy's name. Once the database is open this loses nothing (the open
    /// file stays readable until closed), and a process killed afterwards leaves no copy behind.
    func removeCopy() {
        if let temporary { unlink(temporary) }
        temporary = nil
    }

    /// How a copy's name starts; the process id follows, so a later run can tell a dead one's.
    static let copyPrefix = "healthetl-health-connect-"

    /// Removes copies that runs killed while copying left behind: a copy's name goes as soon as
    /// SQLite has it open, so one still named whose process is gone was never read.
    static func removeStaleCopies(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(copyPrefix) && name.hasSuffix(".db") {
            let pid = name.dropFirst(copyPrefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pid), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(directory + "/" + name)
        }
    }

    /// UTC+14 (Kiribati): no wall clock is further ahead of UTC.
    static let mostEasternOffsetSeconds: Int64 = 14 * 3600

    /// Whether `path` looks like a Health Connect export, without copying anything: a SQLite
    /// file, or a zip whose database entry starts like one.
    static func recognize(_ path: String) -> SourceRecognition {
        if HealthConnectDatabase.startsWithMagic(path) { return .recognized }
        do {
            let archive = try archive(path)
            _ = try databaseEntry(in: archive, path: path)
            return .recognized
        } catch {
            return .notRecognized(reason: "\(error)")
        }
    }

    private static func archive(_ path: String) throws -> ZipArchive {
        do {
            return try ZipArchive(path: path)
        } catch let error as ZipError where error.kind == .notAZip {
            throw HealthConnectError.notADatabase(path: path)
        } catch let error as ZipError {
            throw HealthConnectError.unreadable(path: path, reason: "the zip is damaged: \(error.description)")
        }
    }

    /// The database entry: `health_connect_export.db`, or else the one entry that is a SQLite file.
    private static func databaseEntry(in archive: ZipArchive, path: String) throws -> ZipEntry {
        let files = archive.entries.filter { !$0.isDirectory && !$0.isMacMetadata && !$0.isSymbolicLink }
        let candidates = files.filter { $0.name.split(separator: "/").last.map(String.init) == entryName }
        // An entry the zip reader refuses (a bomb's ratio, damage) is named with the reason, not
        // taken for an entry that is no database.
        var refusal: ZipError?
        for entry in candidates.isEmpty ? files : candidates {
            do {
                if try archive.prefix(of: entry, count: HealthConnectDatabase.magic.count)
                    == HealthConnectDatabase.magic
                {
                    return entry
                }
            } catch let error as ZipError {
                refusal = refusal ?? error
            }
        }
        if let refusal {
            throw HealthConnectError.unreadable(path: path, reason: "the zip is refused: \(refusal.description)")
        }
        throw HealthConnectError.noDatabaseEntry(path: path, entries: files.prefix(5).map(\.name))
    }

    /// Streams the entry to a new 0600 file in the temporary directory, created exclusively (a
    /// planted file or link is never written through); removed again if the copy fails.
    private static func copy(_ entry: ZipEntry, of archive: ZipArchive) throws -> String {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        removeStaleCopies(in: directory)
        let path = directory + "/\(copyPrefix)\(getpid())-\(UInt64.random(in: 0...UInt64.max)).db"
        let file = try PrivateFile(path: path, fresh: true)
        do {
            try archive.read(entry) { chunk in try file.write(chunk) }
            try file.close()
        } catch {
            try? file.close()
            unlink(path)
            if let zip = error as? ZipError {
                throw HealthConnectError.unreadable(
                    path: archive.path, reason: "the zip is damaged: \(zip.description); export again from the phone")
            }
            throw error
        }
        return path
    }
}
