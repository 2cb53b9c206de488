import Foundation

/// The project's shared reference documents in `../shared/docs/` beside the repository
/// (`$HEALTHETL_SHARED_DOCS` names another folder).
///
/// CI has them and a user's clone does not, so the tests that read them sit in suites named
/// `SharedDocsTests`, enabled by `isAvailable`; the lists they check ship in the repository.
public enum SharedDocs {
    public static let folder = TestPaths.sharedFolder("docs", overriddenBy: "HEALTHETL_SHARED_DOCS")

    public static var isAvailable: Bool { TestPaths.isDirectory(folder) }

    /// Why the group is skipped, for the suites' condition trait (the Makefile says the same).
    public static let missingReason = "the shared docs are not in \(folder) (CI has them)"

    /// The non-comment lines of a document, e.g. `healthkit-identifiers.txt`.
    public static func lines(_ name: String) throws -> [String] {
        let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
