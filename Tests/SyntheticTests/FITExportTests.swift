import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import Synthetic

/// The FIT export read back by fitdecode (Tests/tools/fit_oracle.py), a decoder written apart
/// from this project that checks every header and file CRC: what it counts in each file is what
/// the generator says it wrote.
@Suite struct FITExportTests {
    /// 2024-12-02T15:00:00Z, 07:00 on the watch (UTC−8): three days are 2024-11-29 to 2024-12-01.
    static let clock = Clock.fixed(Instant(secondsSinceEpoch: 1_733_151_600))

    static func export(to path: String, days: Int = 3, seed: UInt64 = 11) throws -> FITExportSummary {
        try FITExportGenerator(options: FITExportOptions(path: path, days: days, seed: seed), clock: clock).run()
    }

    /// fit_oracle.py's object for each file, by path.
    static func oracle(_ paths: [String]) throws -> (exitCode: Int32, files: [String: [String: Any]]) {
        let result = try PythonTools.run("fit_oracle.py", paths)
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return (result.exitCode, object?["files"] as? [String: [String: Any]] ?? [:])
    }

    @Test func fitdecodeCountsWhatTheGeneratorWrote() throws {
        let directory = TemporaryDirectory("fit-export")
        let root = directory.child("garmin")
        let summary = try Self.export(to: root)
        let oracle = try Self.oracle([root])
        #expect(oracle.exitCode == 0)
        #expect(oracle.files.count == summary.files.count)
        #expect(summary.firstDay == "2024-11-29" && summary.lastDay == "2024-12-01")

        var weighIns: [String: Int] = [:]
        var sleepLevels = 0
        var records = 0
        var intervals = 0
        for file in summary.files {
            let read = try #require(oracle.files[root + "/" + file.path], "fitdecode did not read \(file.path)")
            #expect(read["error"] == nil, "\(file.path): \(read["error"] ?? "")")
            #expect((read["warnings"] as? [String])?.isEmpty == true, "\(file.path)")
            #expect(read["messages"] as? [String: Int] == file.messages, "\(file.path)")
            #expect(read["chained"] as? Int == file.fitFiles, "\(file.path)")
            records += read["records"] as? Int ?? 0
            intervals += read["hrv_intervals"] as? Int ?? 0
            sleepLevels += read["sleep_levels"] as? Int ?? 0
            weighIns.merge(read["weight_scale_by_person"] as? [String: Int] ?? [:], uniquingKeysWith: +)
            switch file.kind {
            case .activity:
                #expect(read["hrv_intervals"] as? Int == file.hrvIntervals, "\(file.path)")
                let sum = read["hrv_sum_s"] as? Double ?? 0
                #expect(abs(sum - Double(file.hrvMilliseconds ?? 0) / 1000) < 1e-9, "\(file.path)")
                #expect(read["record_heart_rate_timestamps"] as? Int == file.messages["record"], "\(file.path)")
                let sessions = read["sessions"] as? [[String: Any]] ?? []
                let session = try #require(file.session)
                #expect(sessions.count == 1, "\(file.path)")
                #expect(sessions.first?["sport"] as? String == session.sport)
                #expect(sessions.first?["sub_sport"] as? String == session.subSport)
                #expect(sessions.first?["start_time"] as? String == session.startTime)
                #expect(sessions.first?["total_distance"] as? Double == session.totalDistance)
                #expect(sessions.first?["total_elapsed_time"] as? Double == session.totalElapsedTime)
                #expect(sessions.first?["total_calories"] as? Int == session.totalCalories)
                #expect((read["timestamps"] as? [String: String])?["first"] == session.startTime)
            case .monitoring:
                let day = ((file.path as NSString).lastPathComponent as NSString).deletingPathExtension
                #expect(read["monitoring_steps"] as? Int == summary.stepsByDay[day], "\(file.path)")
                #expect(read["stress_levels"] as? Int == file.stressLevels, "\(file.path)")
                // Written as a watch does: big-endian definitions, compressed-timestamp headers
                // (the night's SpO2), and local types defined again mid-file.
                let layout = read["layout"] as? [String: Int] ?? [:]
                #expect(layout["big_endian_definitions", default: 0] > 0, "\(file.path)")
                #expect(layout["compressed_timestamp_messages"] == file.messages["spo2_data"], "\(file.path)")
                #expect(layout["redefinitions", default: 0] > 0, "\(file.path)")
            case .weight:
                #expect(read["weight_scale_by_person"] as? [String: Int] == file.weighIns, "\(file.path)")
            case .bloodPressure:
                #expect(read["chained"] as? Int == 2)
                #expect(read["blood_pressure"] as? Int == summary.bloodPressureReadings)
            case .sleep:
                break
            }
        }
        #expect(records == summary.records)
        #expect(intervals == summary.hrvIntervals)
        #expect(sleepLevels == summary.sleepLevels)
        #expect(weighIns == summary.weighInsByPerson)
        #expect(summary.weighInsByPerson.keys.sorted() == ["0", "1"])

        // What three days hold: a run and a ride, a monitoring file and a night each.
        #expect(summary.sessions.map(\.sport) == ["running", "cycling"])
        #expect(summary.filesByKind["monitoring"] == 3 && summary.filesByKind["sleep"] == 3)
        #expect(summary.stepsByDay.count == 3 && summary.stepsByDay.values.allSatisfy { $0 > 3_000 })
        #expect(summary.hrvIntervals > summary.records)
        #expect(summary.bloodPressureReadings == 3)
    }

    @Test func zipHoldsTheFolderLayoutByteForByte() throws {
        let directory = TemporaryDirectory("fit-export")
        let folder = try Self.export(to: directory.child("garmin"))
        let zipped = try Self.export(to: directory.child("garmin.zip"))
        #expect(zipped.files == folder.files)
        #expect(zipped.bytes == Int64(try fileSize(directory.child("garmin.zip"))))
        #expect(try permissions(directory.child("garmin.zip")) == 0o600)

        // python3's zipfile reads it, every entry's CRC checked.
        let entries = try ZipReaders.python(directory.child("garmin.zip"))
        #expect(entries.map(\.entry.name) == folder.files.map(\.path))
        for (entry, bytes) in entries {
            let onDisk = try Data(contentsOf: URL(fileURLWithPath: directory.child("garmin/" + entry.name)))
            #expect([UInt8](onDisk) == bytes, "\(entry.name)")
        }
        let folders = Set(folder.files.map { ($0.path as NSString).deletingLastPathComponent })
        #expect(folders == ["GARMIN/Activity", "GARMIN/Monitor", "GARMIN/Sleep", "GARMIN/Weight"])
    }

    @Test func sameSeedWritesSameFilesAndAnotherSeedDoesNot() throws {
        let directory = TemporaryDirectory("fit-export")
        let first = try Self.export(to: directory.child("first"))
        let second = try Self.export(to: directory.child("second"))
        let other = try Self.export(to: directory.child("other"), seed: 12)
        #expect(first.files == second.files)
        #expect(other.files != first.files)
        for file in first.files {
            let a = try Data(contentsOf: URL(fileURLWithPath: directory.child("first/" + file.path)))
            let b = try Data(contentsOf: URL(fileURLWithPath: directory.child("second/" + file.path)))
            #expect(a == b, "\(file.path)")
        }
    }

    /// The oracle's CRC check is real: one changed value, and fitdecode refuses the file.
    @Test func aDamagedFileFailsTheOracle() throws {
        let directory = TemporaryDirectory("fit-export")
        let summary = try Self.export(to: directory.child("garmin"), days: 1)
        let path = directory.child("garmin/" + (try #require(summary.files.first { $0.kind == .sleep })).path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The last byte before the CRC: the hrv_status_summary's status, balanced (4) becomes 5.
        bytes[bytes.count - 3] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let oracle = try Self.oracle([path])
        #expect(oracle.exitCode == 1)
        #expect((oracle.files[path]?["error"] as? String)?.contains("CRC") == true)
    }
}
