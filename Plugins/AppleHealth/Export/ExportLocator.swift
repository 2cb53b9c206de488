import Foundation
import HealthETLZip

/// Finds the export in what the user passed: `export.zip`, a bare main file, or an unzipped
/// folder. The main file is recognised by its content (a `<HealthData>` root), never by its
/// localized name.
enum ExportLocator {
    /// How far into a file its `<HealthData` root may start (the internal DTD comes first).
    static let probeBytes = 256 << 10

    /// - Parameter recognized: the archive found when the same path was last located, if it
    ///   was an export.zip; used instead of finding it again while the file is unchanged.
    static func locate(_ path: String, recognized: LocatedArchive? = nil) throws -> any ExportFiles {
        if let recognized, recognized.path == path, let files = ZipExportFiles.reopening(recognized) {
            return files
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ExportError.unreadable(path: path, reason: "no such file or directory")
        }
        if isDirectory.boolValue { return try locate(inFolder: path) }
        let head = try FileStreamer.prefix(path: path, count: probeBytes)
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return try locate(inArchive: path)
        }
        if head.starts(with: [0x1F, 0x8B]) { throw ExportError.compressedXML(path: path) }
        guard isHealthData(head) else {
            throw ExportError.notAnExport(path: path, detail: "no <HealthData> root near its start")
        }
        let url = URL(fileURLWithPath: path)
        return DirectoryExportFiles(folder: url.deletingLastPathComponent().path, mainName: url.lastPathComponent)
    }

    static func isHealthData(_ head: [UInt8]) -> Bool {
        let marker = Array("<HealthData".utf8)
        guard head.count >= marker.count else { return false }
        return (0...(head.count - marker.count)).contains { start in
            head[start..<(start + marker.count)].elementsEqual(marker)
        }
    }

    private static func locate(inArchive path: String) throws -> any ExportFiles {
        let archive = try ZipArchive(path: path)
        let candidates = archive.entries.filter {
            !$0.isDirectory && !$0.isMacMetadata && !$0.hasUnsafePath && !$0.isSymbolicLink
                && $0.name.lowercased().hasSuffix(".xml")
        }.sorted { ($0.name.split(separator: "/").count, $0.name) < ($1.name.split(separator: "/").count, $1.name) }
        for entry in candidates where isHealthData(try archive.prefix(of: entry, count: probeBytes)) {
            return ZipExportFiles(archive: archive, main: entry)
        }
        throw ExportError.notAnExport(path: path, detail: "no file in the archive has a <HealthData> root")
    }

    private static func locate(inFolder folder: String) throws -> any ExportFiles {
        for candidate in [folder, folder + "/apple_health_export"] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: candidate)) ?? []).sorted()
            for name in names where name.lowercased().hasSuffix(".xml") {
                let head = (try? FileStreamer.prefix(path: candidate + "/" + name, count: probeBytes)) ?? []
                if isHealthData(head) { return DirectoryExportFiles(folder: candidate, mainName: name) }
            }
        }
        throw ExportError.notAnExport(path: folder, detail: "no .xml file in it has a <HealthData> root")
    }
}
