import Foundation

/// Where the tests find the repository's files (the shared real exports are `RealExports`).
public enum TestPaths {
    /// The package root (this file is `Tests/HealthETLTestSupport/TestPaths.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A file of the repository, e.g. `SampleExports/apple-health-sample.zip`.
    public static func repository(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// A folder of `../shared/` beside the repository (`name`, e.g. `real-exports`), or the one
    /// the environment variable `variable` names.
    public static func sharedFolder(_ name: String, overriddenBy variable: String) -> String {
        if let folder = ProcessInfo.processInfo.environment[variable] { return folder }
        return packageRoot.appendingPathComponent("../shared/" + name).standardizedFileURL.path
    }

    /// Whether `path` is a directory: the shared folders are there on CI and not in a user's clone.
    public static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
