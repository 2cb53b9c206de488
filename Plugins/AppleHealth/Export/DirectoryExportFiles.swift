import Foundation

/// An unzipped export: a folder with the main file, `workout-routes/` and `electrocardiograms/`.
final class DirectoryExportFiles: ExportFiles {
    let folder: String
    let mainName: String
    let mainSize: Int64?

    init(folder: String, mainName: String) {
        self.folder = folder
        self.mainName = mainName
        let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + mainName)
        mainSize = (attributes?[.size] as? NSNumber)?.int64Value
    }

    func readMain(into consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        try FileStreamer.stream(path: folder + "/" + mainName, into: consume)
    }

    func streamFile(_ relativePath: String, into consume: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let relative = Self.relative(relativePath)
        // A reference must stay inside the export's folder.
        guard !relative.split(separator: "/").contains("..") else { return false }
        let path = folder + "/" + relative
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular, foldersAreReal(on: relative)
        else { return false }
        let size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        guard size <= ZipExportFiles.maximumSideFileBytes else {
            throw ExportError.sideFileTooLarge(path: path, bytes: size)
        }
        try FileStreamer.stream(path: path, into: consume)
        return true
    }

    var electrocardiograms: [String] {
        guard isRealFolder("electrocardiograms") else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/electrocardiograms")) ?? []
        return names.filter { $0.lowercased().hasSuffix(".csv") }.sorted().map { "electrocardiograms/" + $0 }
    }

    /// Whether every folder on the way to `relative` is a folder of the export's own, not a
    /// symbolic link: a linked `workout-routes` could lead anywhere on the disk.
    private func foldersAreReal(on relative: String) -> Bool {
        let folders = relative.split(separator: "/").dropLast()
        return folders.indices.allSatisfy { isRealFolder(folders[...$0].joined(separator: "/")) }
    }

    private func isRealFolder(_ relative: String) -> Bool {
        // Attributes of the link itself, not of what it points at.
        let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + relative)
        return attributes?[.type] as? FileAttributeType == .typeDirectory
    }
}
