import Foundation

/// The public real Health exports in `../shared/real-exports/` beside the repository
/// (`$HEALTHETL_REAL_EXPORTS` names another folder).
///
/// CI has them and a clean clone does not, so every test that reads them sits in a suite named
/// `RealExportTests`, enabled by `isAvailable`; `ExportQuirksFixture` covers the same paths with
/// files the tests write themselves.
public enum RealExports {
    public static let folder = TestPaths.sharedFolder("real-exports", overriddenBy: "HEALTHETL_REAL_EXPORTS")

    public static var isAvailable: Bool { TestPaths.isDirectory(folder) }

    /// Why the group is skipped, for the suites' condition trait (the Makefile says the same).
    public static let missingReason =
        "the real exports are not in \(folder) (CI has them); ExportQuirksFixture covers the same paths"

    /// A file of the real exports, e.g. `ios16-broken-dtd/export.zip`.
    public static func path(_ relative: String) -> String {
        folder + "/" + relative
    }
}
