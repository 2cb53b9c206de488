import CLibXML2
import CSQLite
import CZstd

/// The versions of the C libraries this build runs against, for `--version` and bug reports.
enum LinkedLibraries {
    static let healthetlVersion = "0.1.0"

    static var versionText: String {
        // libxml2 reports 20914 for 2.9.14.
        let xmlNumber = Int(String(cString: __xmlParserVersion().pointee!)) ?? 0
        let xml = "\(xmlNumber / 10000).\(xmlNumber / 100 % 100).\(xmlNumber % 100)"
        return "healthetl \(healthetlVersion) (SQLite \(String(cString: sqlite3_libversion())),"
            + " libxml2 \(xml), zstd \(String(cString: ZSTD_versionString())))"
    }
}
