import Foundation
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import Testing

@testable import HealthConnect

/// A record table read through the catalog's mappings and normalized: stored units converted,
/// unset values left out, enum numbers turned into the catalog's values.
struct HealthConnectTableReaderTests {
    let fixture = HealthConnectFixture()

    func records(_ table: String, from inserts: String, afterRow: Int64 = 0) throws -> [(Int64, RawRecord)] {
        let (database, schema) = try fixture.database(inserts)
        let map = HealthConnectTableMap(catalog: try MetricCatalog.bundled())
        let reader = try #require(
            HealthConnectTableReader(table: table, mapped: map.tables[table] ?? [], schema: schema))
        #expect(reader.missing.isEmpty)
        var read: [(Int64, RawRecord)] = []
        try reader.read(
            database, provenance: try HealthConnectProvenance(database: database, schema: schema), afterRow: afterRow
        ) {
            read.append(($0, $1))
        }
        return read
    }

    func normalized(_ record: RawRecord) throws -> Sample { try fixture.normalized(record) }

    /// Weight in grams at a moment, written by a watch through Samsung Health, at UTC+2.
    @Test func aMomentInGramsBecomesKilogramsWithItsAppDeviceAndOffset() throws {
        let read = try records(
            "weight_record_table",
            from: """
                INSERT INTO weight_record_table (row_id, uuid, last_modified_time, app_info_id, device_info_id,
                  recording_method, time, zone_offset, local_date, weight)
                VALUES (7, x'00112233445566778899AABBCCDDEEFF', 1, 1, 1, 3, 1767261600000, 7200, 0, 72500);
                """)
        let (row, record) = try #require(read.first)
        #expect(read.count == 1 && row == 7)
        #expect(record.type == "WeightRecord.weight")
        #expect(record.sourceName == "Samsung Health")
        #expect(record.device == "Samsung SM-R930 (watch)")
        #expect(
            record.metadata.contains(
                MetadataEntry(key: "health_connect_uuid", value: "00112233445566778899AABBCCDDEEFF")))
        #expect(record.metadata.contains(MetadataEntry(key: "health_connect_recording_method", value: "3")))
        let sample = try normalized(record)
        #expect(sample.metric == "body_mass")
        #expect(sample.value == 72.5)
        #expect(sample.start == Instant(millisecondsSinceEpoch: 1_767_261_600_000) && sample.end == sample.start)
        #expect(sample.utcOffsetSeconds == 7200)
    }

    /// Nutrition: one record per nutrient that holds a value; Health Connect's unset
    /// (`Double.MIN_VALUE`) and NULL are left out, not read as 0. Energy in calories → kcal.
    @Test func nutrientsBecomeOneRecordEachAndUnsetOnesAreLeftOut() throws {
        let read = try records(
            "nutrition_record_table",
            from: """
                INSERT INTO nutrition_record_table (row_id, uuid, last_modified_time, app_info_id, start_time,
                  start_zone_offset, end_time, end_zone_offset, local_date, protein, sugar, energy, dietary_fiber)
                VALUES (1, randomblob(16), 1, 2, 1767261600000, 0, 1767263400000, 0, 0, 31.5, 4.9e-324, 650000, NULL);
                """)
        let byType = Dictionary(uniqueKeysWithValues: read.map { ($0.1.type, $0.1) })
        #expect(byType["NutritionRecord.sugar"] == nil && byType["NutritionRecord.dietary_fiber"] == nil)
        let protein = try normalized(try #require(byType["NutritionRecord.protein"]))
        #expect(protein.metric == "dietary_protein" && protein.value == 31.5)
        #expect(protein.start.seconds(until: protein.end) == 1_800)
        let energy = try normalized(try #require(byType["NutritionRecord.energy"]))
        #expect(energy.metric == "dietary_energy_consumed" && energy.value == 650)
        // An app without a name is known by its package.
        #expect(protein.sourceName == "com.example.nameless")
    }

    /// Menstruation flow 2 is "medium"; a number the catalog does not know goes on as written,
    /// so the normalizer refuses it with a reason instead of it vanishing.
    @Test func enumNumbersBecomeCatalogValues() throws {
        let read = try records(
            "menstruation_flow_record_table",
            from: """
                INSERT INTO menstruation_flow_record_table (row_id, uuid, last_modified_time, app_info_id, time,
                  zone_offset, local_date, flow)
                VALUES (1, randomblob(16), 1, 1, 1767261600000, 0, 0, 2), (2, randomblob(16), 1, 1, 1767348000000, 0, 0, 9);
                """)
        #expect(read.count == 2)
        #expect(try normalized(read[0].1).category == "medium")
        let unknown = Normalizer(
            catalog: try MetricCatalog.bundled(), now: Instant(millisecondsSinceEpoch: 1_800_000_000_000)
        )
        .normalize(read[1].1)
        guard case .quarantined(let quarantined) = unknown else {
            Issue.record("an unknown flow number was accepted")
            return
        }
        #expect(quarantined.detail.contains("9"))
    }

    /// Schema 16's activity intensity keeps the intensity in a column Android names `type`
    /// (`ActivityIntensityRecordHelper.TYPE_COLUMN_NAME`): 0 moderate, 1 vigorous.
    @Test func activityIntensityIsReadFromTheColumnAndroidNamesType() throws {
        let read = try records(
            "activity_intensity_record_table",
            from: HealthConnectFixture.activityIntensityTable + """
                INSERT INTO activity_intensity_record_table (row_id, uuid, last_modified_time, app_info_id,
                  start_time, start_zone_offset, end_time, end_zone_offset, local_date, type)
                VALUES (1, randomblob(16), 1, 1, 1767261600000, 3600, 1767262500000, 3600, 0, 1);
                """)
        let sample = try normalized(try #require(read.first).1)
        #expect(read.count == 1)
        // An interval keeps its kind as the value written (as a mindful session's type).
        #expect(sample.metric == "activity_intensity" && sample.valueAsWritten == "vigorous")
        #expect(sample.start.seconds(until: sample.end) == 900)
    }

    @Test func readingResumesAfterARow() throws {
        var inserts = ""
        for row in 1...5 {
            inserts += """
                INSERT INTO steps_record_table (row_id, uuid, last_modified_time, app_info_id, start_time, start_zone_offset,
                  end_time, end_zone_offset, local_date, count)
                VALUES (\(row), randomblob(16), 1, 1, \(1_767_261_600_000 + row * 60_000), 0, \(1_767_261_660_000 + row * 60_000), 0, 0, \(row * 10));

                """
        }
        let read = try records("steps_record_table", from: inserts, afterRow: 3)
        #expect(read.map(\.0) == [4, 5])
        #expect(try read.map { try normalized($0.1).value } == [40, 50])
    }
}
