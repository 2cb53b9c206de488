import Foundation

/// Where the tests find the repository's files and the shared real exports.
public enum TestPaths {
    /// The package root (this file is `Tests/HealthETLTestSupport/TestPaths.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A file of the public real exports in `../shared/real-exports/` beside the repository
    /// (`$HEALTHETL_REAL_EXPORTS` overrides the folder).
    public static func realExport(_ relative: String) -> String {
        if let folder = ProcessInfo.processInfo.environment["HEALTHETL_REAL_EXPORTS"] {
            return folder + "/" + relative
        }
        return packageRoot.appendingPathComponent("../shared/real-exports/" + relative).standardizedFileURL.path
    }

    /// A file of the repository, e.g. `SampleExports/apple-health-sample.zip`.
    public static func repository(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }
}
