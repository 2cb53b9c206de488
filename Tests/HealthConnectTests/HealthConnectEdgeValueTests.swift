import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthConnect

/// A database whose row ids, times and modification times lie at the ends of `Int64` is read
/// whole without trapping: rows with ids near 2^63 in several tables are read and committed with
/// their table's end, sessions and laps at impossible times make no workout or event, and an
/// impossible `last_modified_time` dates nothing.
@Suite struct HealthConnectEdgeValueTests {
    let fixture = HealthConnectFixture()
    static let max = Int64.max
    static let min = Int64.min

    /// Steps, weight and a heart-rate parent each with a row id near 2^63 beside an ordinary one.
    static let hugeRowIDs = """
        INSERT INTO steps_record_table (row_id, uuid, app_info_id, start_time, start_zone_offset, end_time,
          end_zone_offset, count) VALUES
          (1, randomblob(16), 1, 1700000000000, 3600, 1700000600000, 3600, 500),
          (2, randomblob(16), 1, 1700000600000, 3600, 1700000700000, 3600, 600),
          (\(max - 20), randomblob(16), 1, 1700000700000, 3600, 1700000760000, 3600, 7);
        INSERT INTO weight_record_table (row_id, uuid, app_info_id, time, zone_offset, weight) VALUES
          (1, randomblob(16), 1, 1700000000000, 3600, 70000), (\(max - 10), randomblob(16), 1, 1700000100000, 3600, 71000);
        INSERT INTO heart_rate_record_table (row_id, uuid, app_info_id, start_time, start_zone_offset, end_time,
          end_zone_offset) VALUES (\(max - 5), randomblob(16), 1, 1700000000000, 3600, 1700000600000, 3600);
        INSERT INTO heart_rate_record_series_table (parent_key, beats_per_minute, epoch_millis) VALUES
          (\(max - 5), 60, 1700000001000), (\(max - 5), 61, 1700000002000);
        """

    func read(resumingAt position: Int64? = nil, stream: String? = nil) throws -> EventLog {
        let path = fixture.directory.child("health_connect_export.db")
        var log = EventLog()
        let cursors = position.map { at in
            [Lane.hot, .cold].map { StreamCursor(stream: stream ?? "", lane: $0, position: at) }
        }
        _ = try HealthConnectAdapter().read(SourceInput(path: path, resumeFrom: cursors ?? []), into: &log)
        return log
    }

    static func checkpoints(_ log: EventLog) -> [Int64] {
        log.events.compactMap { if case .checkpoint(let cursor) = $0 { cursor.position } else { nil } }
    }

    @Test func rowIDsNearTwoToThe63InSeveralTablesAreReadAndPlaced() throws {
        let (database, schema) = try fixture.database(Self.hugeRowIDs)
        let plan = try HealthConnectReadPlan(database: database, schema: schema, catalog: try MetricCatalog.bundled())
        for table in ["steps_record_table", "weight_record_table", "heart_rate_record_table"] {
            #expect(plan.warnings["rows_beyond_cursor_line:\(table)"] == 1)
        }
        #expect(plan.parts.allSatisfy { $0.lastRow <= HealthConnectReadPlan.largestPlacedRow })
        #expect(plan.end <= Int64(plan.parts.count) * HealthConnectReadPlan.largestPlacedRow)

        let log = try read()
        #expect(log.records.count == 7, "three steps, two weights, two heart-rate points")
        let positions = Self.checkpoints(log)
        #expect(positions == positions.sorted())
        #expect(positions.allSatisfy { $0 >= 0 && $0 <= plan.end })
    }

    @Test func aResumedReadReadsTheRowsBeyondTheLineAgainUntilTheirPartIsWhole() throws {
        let (database, schema) = try fixture.database(Self.hugeRowIDs)
        let plan = try HealthConnectReadPlan(database: database, schema: schema, catalog: try MetricCatalog.bundled())
        let stream = try #require(
            try read().events.compactMap { if case .streamStarted(let name, _, _, _, _) = $0 { name } else { nil } }
                .first)
        let steps = try #require(plan.parts.first { $0.name == "steps_record_table" })
        // Row 1 of steps committed: row 2 and the row near 2^63 are read again, with everything after them.
        let afterFirstRow = try read(resumingAt: steps.base + 1, stream: stream).records
        #expect(afterFirstRow.filter { $0.value == .number(7) || $0.value == .number(600) }.count == 2)
        #expect(!afterFirstRow.contains { $0.value == .number(500) })
        // Steps committed whole (a position only its end's checkpoint gives): none of its rows again.
        let afterSteps = try read(resumingAt: steps.end, stream: stream).records
        #expect(!afterSteps.contains { [.number(7), .number(500), .number(600)].contains($0.value) })
        #expect(afterSteps.contains { $0.value == .number(71000) })
    }

    @Test func rowsBeyondThePartsPlaceWaitForItsEndToBeCommitted() throws {
        let part = HealthConnectPart(
            name: "steps_record_table", reader: .exercise(try #require(try exerciseReader())), base: 100, lastRow: 2)
        var feed = HealthConnectFeed(
            handler: EventLog(), hotSince: Instant(millisecondsSinceEpoch: 0), every: 1, stream: "s")
        feed.begin(part)
        let record = RawRecord(
            type: "StepsRecord", sourceName: "x", value: .number(1), start: .text(""), end: .text(""))
        for row in [1, 2, Self.max - 1, Self.max] { try feed.record(record, row: row) }
        try feed.finishPart()
        // Row 1 as row 2 starts; row 2 is the part's last placed row, so nothing more until its end.
        #expect(Self.checkpoints(feed.handler) == [101, 102])
        #expect(part.position(after: Self.max) == nil)
    }

    func exerciseReader() throws -> HealthConnectExerciseReader? {
        let (_, schema) = try fixture.database("")
        return HealthConnectExerciseReader(schema: schema, exerciseType: nil)
    }

    @Test func sessionsAndLapsAtImpossibleTimesMakeNoWorkoutNorEvent() throws {
        _ = try fixture.database(
            """
            INSERT INTO exercise_session_record_table (row_id, uuid, app_info_id, start_time, start_zone_offset,
              end_time, end_zone_offset, exercise_type) VALUES
              (1, randomblob(16), 1, \(Self.max), 3600, \(Self.min), 3600, 8),
              (2, randomblob(16), 1, 1700000000000, \(Self.max), 1700000600000, 0, 8),
              (3, randomblob(16), 1, 1700000000000, 4294970896, 1700000600000, 0, 8),
              (4, randomblob(16), 1, 1700000000000, 3600, 1700000600000, 3600, 8);
            INSERT INTO exercise_laps_table (parent_key, lap_start_time, lap_end_time, lap_length) VALUES
              (4, \(Self.min), \(Self.max), 5), (4, 1700000000000, \(Self.min), 5), (4, 1700000300000, 1700000600000, 5);
            INSERT INTO exercise_route_table (parent_key, timestamp_millis, latitude, longitude, altitude,
              horizontal_accuracy, vertical_accuracy) VALUES (4, \(Self.max), 52.0, 13.0, 30, 5, 5),
              (4, 1700000100000, 52.0, 13.0, 30, 5, 5);
            """)
        let log = try read()
        let workouts = log.events.compactMap { if case .workout(let workout, _) = $0 { workout } else { nil } }
        // An offset of 2^32 + 3600 is not +01:00: refused, not truncated.
        #expect(workouts.count == 1)
        let workout = try #require(workouts.first)
        #expect(workout.utcOffsetSeconds == 3_600)
        #expect(workout.events.map(\.date.millisecondsSinceEpoch) == [1_700_000_000_000, 1_700_000_300_000])
        // 1700000000000 ms to Int64.min: a duration of about −2^63 ms, not an overflow
        #expect((workout.events.first?.durationSeconds ?? 0) < -9.2e15)
        #expect(workout.route.count == 1)
        // Each refused session is still reported by its `workout` sample.
        #expect(log.records.filter { $0.type == "ExerciseSessionRecord.exercise_type" }.count == 4)
    }

    /// A bare database's file time dates the export; one past 2200 (ext4 holds up to 2446, tmpfs
    /// a 64-bit second count whose milliseconds overflow `Int64`) dates nothing.
    @Test func anImpossibleFileTimeDatesNothing() throws {
        _ = try fixture.database("")
        var paths = [fixture.directory.child("health_connect_export.db")]
        if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            let shared = "/dev/shm/healthetl-hc-\(UUID().uuidString).db"
            try FileManager.default.copyItem(atPath: paths[0], toPath: shared)
            paths.append(shared)
        }
        defer { for path in paths.dropFirst() { try? FileManager.default.removeItem(atPath: path) } }
        for path in paths {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 92_233_720_368_547_760)], ofItemAtPath: path)
            #expect(try HealthConnectExportFile(path: path).writtenNoEarlierThan == nil, "\(path)")
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: path)
            #expect(
                try HealthConnectExportFile(path: path).writtenNoEarlierThan
                    == Instant(millisecondsSinceEpoch: 1_700_000_000_000))
        }
    }

    @Test func anImpossibleModificationTimeDatesNothing() throws {
        let (database, schema) = try fixture.database(
            """
            INSERT INTO weight_record_table (row_id, uuid, last_modified_time, app_info_id, time, zone_offset, weight)
              VALUES (1, randomblob(16), \(Self.max), 1, 1700000000000, 3600, 70000),
              (2, randomblob(16), \(Self.min), 1, 1700000000000, 3600, 70000),
              (3, randomblob(16), 'soon', 1, 1700000000000, 3600, 70000),
              (4, randomblob(16), 1700000500000, 1, 1700000000000, 3600, 70000);
            """)
        let plan = try HealthConnectReadPlan(database: database, schema: schema, catalog: try MetricCatalog.bundled())
        #expect(plan.newestModification == Instant(millisecondsSinceEpoch: 1_700_000_500_000))
        #expect(plan.warnings["last_modified_time_out_of_range:weight_record_table"] == 3)
    }
}
