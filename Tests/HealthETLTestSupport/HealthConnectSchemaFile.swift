import Foundation
import HealthETLSQLite

/// A Health Connect database file as Android lays it out at schema version 14 (the schema the
/// research reconstructed from AOSP, which the generator also writes), private to its owner.
public enum HealthConnectSchemaFile {
    /// The version 14 schema's statements.
    public static func version14() throws -> String {
        try String(
            contentsOfFile: TestPaths.repository("Plugins/Synthetic/HealthConnectExport/health-connect-v14.sql"),
            encoding: .utf8)
    }

    /// Creates `path` (0600) with the version 14 schema, `PRAGMA user_version = 14` and then
    /// `statements`, and returns the connection that wrote it.
    @discardableResult
    package static func create(at path: String, then statements: String = "") throws -> SQLiteConnection {
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        let writer = try SQLiteConnection(path: path)
        try writer.execute(try version14())
        try writer.execute("PRAGMA user_version = 14;\n" + statements)
        return writer
    }
}
