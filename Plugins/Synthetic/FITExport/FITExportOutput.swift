import Foundation
import HealthETLZip

/// Where the files go: into a zip (streamed entry by entry, `PATH.partial` until finished) or
/// into a folder on disk, under the same relative paths.
final class FITExportOutput {
    private let zip: ZipWriter?
    private let folder: String?
    private var createdFolders: Set<String> = []
    private var fileBytes: Int64 = 0

    /// A zip when `path` ends in `.zip`, else a folder (created 0700 with its parents).
    init(path: String, modified: ZipTimestamp) throws {
        if path.hasSuffix(".zip") {
            zip = try ZipWriter(path: path, modified: modified)
            folder = nil
        } else {
            zip = nil
            folder = path
            try createFolder(path)
        }
    }

    /// Writes one file at `relativePath` (e.g. `GARMIN/Activity/….fit`).
    func write(_ relativePath: String, _ bytes: [UInt8]) throws {
        if let zip {
            try zip.beginEntry(relativePath)
            try zip.write(bytes)
            try zip.endEntry()
        } else if let folder {
            let path = folder + "/" + relativePath
            try createFolder((path as NSString).deletingLastPathComponent)
            let file = try PrivateFile(path: path)
            try bytes.withUnsafeBytes { try file.write($0) }
            try file.close()
        }
        fileBytes += Int64(bytes.count)
    }

    /// Finishes the zip. - Returns: the zip's size, or the files' bytes in a folder.
    func finish() throws -> Int64 {
        guard let zip else { return fileBytes }
        return Int64(try zip.finish())
    }

    private func createFolder(_ path: String) throws {
        guard createdFolders.insert(path).inserted else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw GeneratorError("cannot create \(path): \(error.localizedDescription)")
        }
    }
}
