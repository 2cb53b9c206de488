import Foundation
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import Testing

@testable import HealthConnect

/// A Health Connect database at version 14 (the schema reconstructed from AOSP) with two apps
/// and a watch, plus the rows a test inserts, open for reading as the plugin opens it.
struct HealthConnectFixture {
    let directory = TemporaryDirectory("healthetl-hc")

    func database(_ inserts: String) throws -> (HealthConnectDatabase, HealthConnectSchema) {
        let path = directory.child("health_connect_export.db")
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        let writer = try SQLiteConnection(path: path)
        try writer.execute(
            try String(
                contentsOfFile: TestPaths.repository("Plugins/Synthetic/HealthConnectExport/health-connect-v14.sql"),
                encoding: .utf8))
        try writer.execute(
            """
            PRAGMA user_version = 14;
            INSERT INTO application_info_table (row_id, package_name, app_name) VALUES
              (1, 'com.sec.android.app.shealth', 'Samsung Health'), (2, 'com.example.nameless', NULL);
            INSERT INTO device_info_table (row_id, manufacturer, model, device_type) VALUES (1, 'Samsung', 'SM-R930', 1);
            \(inserts)
            """)
        let database = try HealthConnectDatabase(path: path)
        return (database, try database.schema())
    }

    /// Normalizes a record with the bundled catalog; a quarantine is recorded as a test issue.
    func normalized(_ record: RawRecord, sourceLocation: SourceLocation = #_sourceLocation) throws -> Sample {
        let outcome = Normalizer(
            catalog: try MetricCatalog.bundled(), now: Instant(millisecondsSinceEpoch: 1_800_000_000_000)
        ).normalize(record)
        switch outcome {
        case .accepted(let sample), .flagged(let sample): return sample
        case .quarantined(let quarantined):
            Issue.record(
                "quarantined: \(quarantined.reason.rawValue) \(quarantined.detail)", sourceLocation: sourceLocation)
            throw HealthConnectError.unreadable(path: "", reason: "quarantined")
        }
    }
}
