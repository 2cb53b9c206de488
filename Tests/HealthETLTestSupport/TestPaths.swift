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
}
