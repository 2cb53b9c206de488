import ArgumentParser
import Foundation
import HealthETLSQLite

/// `healthetl backup`: a consistent copy of the store, or of a collector's SQLite database,
/// taken while imports, uploads or the server go on.
struct BackupCommand: ParsableCommand, TakesGlobalOptions {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the store (or a collector's database) while it is in use, and check the copy.",
        discussion: """
            The copy is taken through SQLite's online backup API as of one commit, checked with
            PRAGMA integrity_check, and written 0600; it never replaces a file. With --out DIR/ (or
            an existing directory) the copy is DIR/healthetl.sqlite, and restoring is pointing
            --store (or serve --data) at DIR. A collector on PostgreSQL is backed up with pg_dump
            (Docs/operations.md, "Backups").
            """)

    @OptionGroup var given: GlobalOptions
    @ParentCommand var root: HealthETL

    @Option(help: ArgumentHelp("Where the copy goes: a new file, or a directory.", valueName: "file|dir/"))
    var out: String

    @Option(
        help: ArgumentHelp(
            "Back up the collector whose data directory this is (`serve --data DIR`) instead of the store.",
            valueName: "dir"))
    var collectorData: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let source = DatabaseDirectory(path: collectorData ?? global.resolvedStorePath)
        let copy = try CommandFailure.wrapping { try DatabaseBackup.copy(source, to: out) }
        if json {
            try JSONOutput.print(copy)
            return
        }
        let mebibytes = String(format: "%.1f", Double(copy.bytes) / 1_048_576)
        print(
            "Backed up \(copy.source) to \(copy.path): \(mebibytes) MiB in \(String(format: "%.1f", copy.seconds)) s.")
        print("integrity_check: \(copy.integrity); schema: \(copy.migrations) migrations; mode 0600.")
        let option = collectorData == nil ? "--store" : "serve --data"
        if copy.path.hasSuffix("/" + DatabaseDirectory.databaseName) {
            print("To restore, point \(option) at \((copy.path as NSString).deletingLastPathComponent).")
        } else {
            print(
                "To restore, put it in an empty directory as \(DatabaseDirectory.databaseName) (mode 0700) and point \(option) at that directory."
            )
        }
    }
}
