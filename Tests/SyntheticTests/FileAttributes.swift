import Foundation

/// A file's size in bytes, for comparing with what a writer reports.
func fileSize(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
}

/// A file's permission bits (0o600 for everything the generator writes).
func permissions(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
