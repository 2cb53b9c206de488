import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthConnect

/// Child tables read with their parent record: series points and sleep stages.
struct HealthConnectChildTableReaderTests {
    let fixture = HealthConnectFixture()

    func records(_ table: String, from inserts: String, afterParent: Int64 = 0) throws -> [(Int64, RawRecord)] {
        let (database, schema) = try fixture.database(inserts)
        let map = HealthConnectTableMap(catalog: try MetricCatalog.bundled())
        let reader = try #require(
            HealthConnectChildTableReader(table: table, mapped: map.tables[table] ?? [], schema: schema))
        #expect(reader.missing.isEmpty)
        var read: [(Int64, RawRecord)] = []
        try reader.read(
            database, provenance: try HealthConnectProvenance(database: database, schema: schema),
            afterParent: afterParent
        ) { read.append(($0, $1)) }
        return read
    }

    static let heartRates = """
        INSERT INTO heart_rate_record_table (row_id, uuid, last_modified_time, app_info_id, device_info_id, start_time,
          start_zone_offset, end_time, end_zone_offset, local_date)
        VALUES (1, x'0000000000000000000000000000000A', 1, 1, 1, 1767261600000, -18000, 1767261720000, -18000, 0),
               (2, x'0000000000000000000000000000000B', 1, 1, 1, 1767265200000, -18000, 1767265260000, -18000, 0);
        INSERT INTO heart_rate_record_series_table (parent_key, beats_per_minute, epoch_millis) VALUES
          (1, 72, 1767261660000), (1, 70, 1767261600000), (2, 95, 1767265200000);
        """

    /// Each beat rate is a moment of its own (in its record's rows' stored order: the order of a
    /// record's points is no part of their identity), at the record's offset, known by the
    /// record's uuid and writer.
    @Test func seriesPointsBecomeMomentsOfTheirRecord() throws {
        let read = try records("heart_rate_record_series_table", from: Self.heartRates)
        #expect(read.map(\.0) == [1, 1, 2])
        let samples = try read.map { try fixture.normalized($0.1) }.sorted { $0.start < $1.start }
        #expect(samples.map(\.value) == [70, 72, 95])
        #expect(samples.allSatisfy { $0.metric == "heart_rate" && $0.start == $0.end && $0.utcOffsetSeconds == -18000 })
        #expect(samples.allSatisfy { $0.sourceName == "Samsung Health" && $0.device == "Samsung SM-R930 (watch)" })
        #expect(
            read[0].1.metadata.contains(
                MetadataEntry(key: "health_connect_parent_uuid", value: "0000000000000000000000000000000A")))
        // Resuming after the first record reads only the second's points.
        #expect(try records("heart_rate_record_series_table", from: Self.heartRates, afterParent: 1).map(\.0) == [2])
    }

    /// Sleep stages are spans with the catalog's stage values: 4 light → core, 6 REM, 1 awake.
    @Test func sleepStagesBecomeStagedSpans() throws {
        let read = try records(
            "sleep_stages_table",
            from: """
                INSERT INTO sleep_session_record_table (row_id, uuid, last_modified_time, app_info_id, start_time,
                  start_zone_offset, end_time, end_zone_offset, local_date)
                VALUES (1, randomblob(16), 1, 2, 1767240000000, 3600, 1767268800000, 3600, 0);
                INSERT INTO sleep_stages_table (parent_key, stage_start_time, stage_end_time, stage_type) VALUES
                  (1, 1767240000000, 1767250800000, 4), (1, 1767250800000, 1767254400000, 6),
                  (1, 1767254400000, 1767255000000, 1);
                """)
        let samples = try read.map { try fixture.normalized($0.1) }
        #expect(samples.map(\.category) == ["asleep_core", "asleep_rem", "awake"])
        #expect(samples.map { $0.start.seconds(until: $0.end) } == [10_800, 3_600, 600])
        #expect(samples.allSatisfy { $0.metric == "sleep_analysis" && $0.utcOffsetSeconds == 3600 })
    }

    /// A series whose record table is named the newer way (`SpeedRecordTable`) is found through
    /// its foreign key, not by guessing names.
    @Test func theParentIsFoundByTheForeignKey() throws {
        let (_, schema) = try fixture.database("")
        #expect(schema.parents["speed_record_table"] == "SpeedRecordTable")
        #expect(schema.parents["sleep_stages_table"] == "sleep_session_record_table")
        #expect(schema.parents["steps_record_table"] == nil)
    }
}
