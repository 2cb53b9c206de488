import HealthETLZip

/// An export read straight from `export.zip`, entry by entry, without extracting anything.
final class ZipExportFiles: ExportFiles {
    /// Route and ECG files are read whole; anything larger than this is not a real one.
    static let maximumSideFileBytes: UInt64 = 64 << 20

    private let archive: ZipArchive
    private let main: ZipEntry
    /// The folder the main file sits in, e.g. `apple_health_export/`, or empty.
    private let root: String
    private let byName: [String: ZipEntry]

    init(archive: ZipArchive, main: ZipEntry) {
        self.archive = archive
        self.main = main
        if let slash = main.name.lastIndex(of: "/") {
            root = String(main.name[...slash])
        } else {
            root = ""
        }
        var byName: [String: ZipEntry] = [:]
        for entry in archive.entries where !entry.isDirectory && !entry.isMacMetadata && !entry.hasUnsafePath {
            byName[entry.name] = entry
        }
        self.byName = byName
    }

    /// Opens the archive again from what was found when it was located, or nil when the file is
    /// not the same any more (or cannot be opened): locate it afresh then.
    static func reopening(_ located: LocatedArchive) -> ZipExportFiles? {
        let archive = try? ZipArchive(path: located.path, directory: located.directory)
        return archive.map { ZipExportFiles(archive: $0, main: located.main) }
    }

    /// What was found, for the next reader of the same file.
    var located: LocatedArchive {
        LocatedArchive(path: archive.path, directory: archive.directory, main: main)
    }

    var mainName: String { main.name }
    var mainSize: Int64? { Int64(main.uncompressedSize) }

    func readMain(into consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        try archive.read(main, chunkSize: 1 << 16, into: consume)
    }

    func streamFile(_ relativePath: String, into consume: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let entry = byName[root + Self.relative(relativePath)], !entry.isSymbolicLink else { return false }
        guard entry.uncompressedSize <= Self.maximumSideFileBytes else {
            throw ExportError.sideFileTooLarge(path: entry.name, bytes: entry.uncompressedSize)
        }
        try archive.read(entry, chunkSize: 1 << 16, into: consume)
        return true
    }

    var electrocardiograms: [String] {
        byName.keys.filter { $0.hasPrefix(root + "electrocardiograms/") && $0.lowercased().hasSuffix(".csv") }
            .map { String($0.dropFirst(root.count)) }.sorted()
    }
}
