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

    /// The table schema 16 adds, as `ActivityIntensityRecordHelper` (an `IntervalRecordHelper`)
    /// has Android create it: the common columns, the span, the intensity in `type`, the
    /// local-time columns, and an index per foreign key.
    static let activityIntensityTable = """
        CREATE TABLE IF NOT EXISTS activity_intensity_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT,
          uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER, client_record_id TEXT, client_record_version TEXT,
          device_info_id INTEGER, app_info_id INTEGER, recording_method INTEGER, dedupe_hash BLOB UNIQUE,
          start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, local_date INTEGER,
          type INTEGER, local_date_time_start_time INTEGER AS (start_time + 1000 * start_zone_offset),
          local_date_time_end_time INTEGER AS (end_time + 1000 * end_zone_offset),
          FOREIGN KEY (device_info_id) REFERENCES device_info_table(row_id) ON DELETE CASCADE,
          FOREIGN KEY (app_info_id) REFERENCES application_info_table(row_id) ON DELETE CASCADE);
        CREATE INDEX  idx_activity_intensity_record_table_0 ON activity_intensity_record_table(device_info_id);
        CREATE INDEX  idx_activity_intensity_record_table_1 ON activity_intensity_record_table(app_info_id);
        """

    func database(_ inserts: String) throws -> (HealthConnectDatabase, HealthConnectSchema) {
        let path = directory.child("health_connect_export.db")
        try HealthConnectSchemaFile.create(
            at: path,
            then: """
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
