import Foundation

/// The folder FHIR Bulk Data files go into: created private (0700) when missing; an existing one
/// must be a folder.
struct BulkFolder {
    let path: String

    init(path: String) throws {
        guard path != "-" else {
            throw ExportError.unsupported("--bulk writes a folder of files: give it with --out DIR")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw ExportError.cannotWrite(path: path, reason: "it is a file; --bulk writes a folder")
            }
        } else {
            do {
                try FileManager.default.createDirectory(
                    atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw ExportError.cannotWrite(path: path, reason: error.localizedDescription)
            }
        }
        self.path = path
    }

    func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }
}
