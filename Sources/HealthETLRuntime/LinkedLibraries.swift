import AppleHealth
import CollectorSink
import HealthETLCore
import HealthETLSQLite

/// The versions of healthetl and of the C libraries this build runs against, for `--version`
/// and bug reports.
public enum LinkedLibraries {
    public static let healthetlVersion = HealthETLVersion.current

    public static var versionText: String {
        "healthetl \(healthetlVersion) (SQLite \(SQLiteError.libraryVersion),"
            + " libxml2 \(XMLStreamParser.libraryVersion), zstd \(ZstdFrame.libraryVersion))"
    }
}
