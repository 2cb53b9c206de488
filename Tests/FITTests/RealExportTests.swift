import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import FIT

/// The public FIT files in `../shared/real-exports/fit/` (Garmin, Wahoo, Zwift, Stryd), each read
/// by the decoder and the adapter and compared with what fitdecode, an independent decoder,
/// reads from the same file.
@Suite(.enabled(if: RealExports.isAvailable, Comment(rawValue: RealExports.missingReason)))
struct RealExportTests {
    static let folder = RealExports.path("fit")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".fit") }.sorted()
    }

    /// fitdecode's reading of every file, by file name.
    static func oracle() throws -> [String: [String: Any]] {
        let result = try PythonTools.run("fit_oracle.py", files.map { folder + "/" + $0 })
        #expect(result.exitCode == 0, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let byPath = object?["files"] as? [String: [String: Any]] ?? [:]
        return Dictionary(uniqueKeysWithValues: byPath.map { (($0.key as NSString).lastPathComponent, $0.value) })
    }

    @Test func everyMessageAndEveryChainedFileIsWhatFitdecodeReads() throws {
        let oracle = try Self.oracle()
        #expect(Self.files.count == 16)
        for file in Self.files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + file)))
            let read = try FITReadResult.messages(in: bytes)
            let expected = try #require(oracle[file])
            let messages = (expected["messages"] as? [String: Int] ?? [:]).reduce(into: [String: Int]()) {
                $0[$1.key.replacingOccurrences(of: "unknown_", with: "message_")] = $1.value
            }
            #expect(read.messages == messages, "\(file)")
            #expect(read.files == expected["chained"] as? Int, "\(file)")
            #expect(read.damage.isEmpty, "\(file): \(read.damage)")
        }
    }

    @Test func heartRateBeatsAndSessionsAreWhatFitdecodeReads() throws {
        let oracle = try Self.oracle()
        for file in Self.files {
            let expected = try #require(oracle[file])
            let result = try FITReadResult.read(Self.folder + "/" + file)
            #expect(result.report.complete, "\(file): \(result.report.problem ?? "")")
            // fitdecode's count leaves out device-relative times, which date nothing (quarantined).
            let heartRates = result.records("record", "heart_rate").filter { $0.start.timestamp != nil }
            #expect(heartRates.count == expected["record_heart_rate_timestamps"] as? Int, "\(file)")
            let beats = result.records("hrv", "time")
            #expect(beats.count == expected["hrv_intervals"] as? Int, "\(file)")
            var beatSum = 0.0
            for beat in beats { if case .number(let value) = beat.value { beatSum += value } }
            #expect(abs(beatSum - (expected["hrv_sum_s"] as? Double ?? 0)) < 0.0005, "\(file)")
            let sessions = expected["sessions"] as? [[String: Any]] ?? []
            let workoutRecords = result.records("session", "sport")
            #expect(workoutRecords.count == sessions.count, "\(file)")
            // A session with a device-relative start is quarantined, so no workout carries it.
            let dated = sessions.filter { ($0["start_time"] as? String).map { $0 >= "1999" } ?? false }
            #expect(result.workouts.count == dated.count, "\(file)")
            for (workout, session) in zip(result.workouts, dated) {
                #expect(workout.activityType.hasPrefix(session["sport"] as? String ?? "?"), "\(file)")
                let distance = workout.statistics.first { $0.type == "total_distance" }?.sum
                #expect(abs((distance ?? 0) - (session["total_distance"] as? Double ?? 0)) < 0.01, "\(file)")
                #expect(workout.start.description.hasPrefix((session["start_time"] as? String ?? "?").dropLast()))
            }
        }
    }

    /// A swim's heart rate is not in its records; Settings2.fit's user profile weight is a setting.
    @Test func settingsAreNoMeasurementsAndZeroHeartRateIsNoSensor() throws {
        let settings = try FITReadResult.read(Self.folder + "/Settings2.fit")
        #expect(settings.records.isEmpty)
        let zwift = try FITReadResult.read(Self.folder + "/null_compressed_speed_dist.fit")
        #expect(zwift.records("record", "heart_rate").isEmpty)
        #expect(zwift.report.warnings["heart_rate_zero_no_sensor"] == 1808)
        let workout = try #require(zwift.workouts.first)
        #expect(!workout.statistics.contains { $0.type == "heart_rate" })
    }

    /// Every timestamp of this file counts from the device's power-up: nothing of it is dated.
    @Test func deviceRelativeTimesDateNothing() throws {
        let result = try FITReadResult.read(Self.folder + "/compressed-speed-distance.fit")
        #expect(result.workouts.isEmpty)
        #expect(!result.records.isEmpty)
        for record in result.records {
            #expect(record.start.timestamp == nil, "\(record.start)")
        }
        let normalizer = Normalizer(
            catalog: try MetricCatalog.bundled(), now: Instant(secondsSinceEpoch: 1_900_000_000))
        let outcomes = result.records.map { normalizer.normalize($0) }
        #expect(
            outcomes.allSatisfy {
                if case .quarantined(let record) = $0 { record.reason == .deviceRelativeTime } else { false }
            })
    }

    /// A pool swim: the strap's heart rate comes in `hr` messages of the FIT files chained after
    /// the activity (1,415 messages, 11,292 values), each dated from its anchor's event time.
    @Test func aSwimsHeartRateComesFromItsHRMessagesAtTheirEventTimes() throws {
        let result = try FITReadResult.read(Self.folder + "/event_timestamp.fit")
        let strap = result.records("hr", "filtered_bpm")
        #expect(strap.count == 11_292)
        #expect(result.records("record", "heart_rate").isEmpty)
        let times = strap.compactMap { $0.start.timestamp?.instant }
        #expect(times.count == strap.count)
        let first = try #require(times.min())
        let last = try #require(times.max())
        #expect(first.description >= "2017-06-13T13:31:55")
        #expect(last.description <= "2017-06-13T14:58:40")
        #expect(times == times.sorted())
    }
}
