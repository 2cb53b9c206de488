import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import FIT
@testable import Synthetic

/// The generator's FIT files (activities, monitoring, sleep, scales and blood pressure, as a
/// folder and as a zip) read back into exactly what it wrote, by a source that passes the
/// shared conformance suite, resumable part-way.
struct FITExportImportTests {
    static let today = Instant(secondsSinceEpoch: 1_795_000_000)

    static func export(days: Int = 5, to path: String) throws -> FITExportSummary {
        try FITExportGenerator(options: FITExportOptions(path: path, days: days, seed: 7), clock: .fixed(today)).run()
    }

    static func values(_ records: [RawRecord]) -> [Double] {
        records.compactMap { if case .number(let value) = $0.value { value } else { nil } }
    }

    @Test func aFolderReadsIntoWhatTheGeneratorWrote() throws {
        let folder = TemporaryDirectory("fit-export")
        let summary = try Self.export(to: folder.child("GARMIN"))
        let result = try FITReadResult.read(folder.child("GARMIN"), readAt: Self.today)
        #expect(result.report.complete, "\(result.report.problem ?? "")")
        #expect(result.workouts.count == summary.sessions.count)
        #expect(
            Int(Self.values(result.records("monitoring", "steps")).reduce(0, +))
                == summary.stepsByDay.values.reduce(0, +))
        #expect(result.records("hrv", "time").count == summary.hrvIntervals)
        #expect(result.records("weight_scale", "weight").count == summary.weighInsByPerson["0"])
        #expect(result.report.warnings["other_person"] ?? 0 > 0)
        #expect(result.records("stress_level", "stress_level_value").count == summary.stressLevels)
        #expect(result.records("blood_pressure", "systolic_pressure").count == summary.bloodPressureReadings)
        #expect(!result.records("sleep_level", "sleep_level").isEmpty)
        for (workout, session) in zip(result.workouts.sorted { $0.start < $1.start }, summary.sessions) {
            #expect(workout.activityType.hasPrefix(session.sport))
            #expect(!workout.route.isEmpty)
        }
        // Activities tell their offset last, monitoring files first: their records are in the
        // wearer's day. Sleep and scale files tell none.
        let told = result.records.filter { $0.type.hasPrefix("fit:record.") || $0.type.hasPrefix("fit:monitoring.") }
        #expect(!told.isEmpty)
        #expect(told.allSatisfy { $0.start.timestamp?.utcOffsetSeconds == -28_800 })
        let messages = result.report.warnings.filter { $0.key.hasPrefix("not_mapped:") }
        #expect(messages.isEmpty, "\(messages)")
    }

    /// Intensity minutes are the day's so far in each monitoring file: their deltas add up to its
    /// last readings, as exercise time.
    @Test func intensityMinutesAddUpToEachDaysLastReading() throws {
        let folder = TemporaryDirectory("fit-intensity")
        _ = try Self.export(days: 4, to: folder.child("GARMIN"))
        let result = try FITReadResult.read(folder.child("GARMIN"), readAt: Self.today)
        var expected = 0.0
        let root = folder.child("GARMIN")
        for name in FileManager.default.subpaths(atPath: root) ?? [] where name.contains("Monitor/") {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + name)))
            var last: [UInt8: Double] = [:]
            var splitter = FITFileSplitter()
            try bytes.withUnsafeBytes { raw in
                try splitter.feed(raw) { file in
                    var decoder = FITMessageDecoder()
                    try file.withData { data in
                        try decoder.decode(data, base: 0) { message, _ in
                            guard message.globalNumber == 55 else { return }
                            for field: UInt8 in [33, 34] {
                                if let value = message.number(field) { last[field] = value }
                            }
                        }
                    }
                }
            }
            expected += last.values.reduce(0, +)
        }
        let minutes = Self.values(
            result.records("monitoring", "moderate_activity_minutes")
                + result.records("monitoring", "vigorous_activity_minutes"))
        #expect(expected > 0)
        #expect(minutes.reduce(0, +) == expected)
    }

    /// A scale two people share: the configured person's readings, the other's counted.
    @Test func theConfiguredPersonsWeighInsAreImported() throws {
        let folder = TemporaryDirectory("fit-person")
        let summary = try Self.export(days: 6, to: folder.child("GARMIN"))
        let second = try FITReadResult.read(
            folder.child("GARMIN"), readAt: Self.today, settings: ["person": .number(1)])
        #expect(second.records("weight_scale", "weight").count == summary.weighInsByPerson["1"])
        #expect(second.report.warnings["other_person"] ?? 0 >= summary.weighInsByPerson["0"] ?? 0)
        #expect(throws: PluginSettingsError.self) {
            try FITReadResult.read(folder.child("GARMIN"), settings: ["person": .number(-1)])
        }
    }

    @Test func theSameExportAsAZipReadsTheSame() throws {
        let folder = TemporaryDirectory("fit-export-zip")
        _ = try Self.export(days: 3, to: folder.child("GARMIN"))
        _ = try Self.export(days: 3, to: folder.child("garmin.zip"))
        let plain = try FITReadResult.read(folder.child("GARMIN"), readAt: Self.today)
        let zipped = try FITReadResult.read(folder.child("garmin.zip"), readAt: Self.today)
        #expect(zipped.report.complete, "\(zipped.report.problem ?? "")")
        #expect(zipped.records == plain.records)
        #expect(zipped.workouts == plain.workouts)
    }

    @Test func itPassesTheSourceConformanceSuiteResumedPartWay() throws {
        let folder = TemporaryDirectory("fit-conformance")
        _ = try Self.export(days: 4, to: folder.child("GARMIN"))
        let input = SourceInput(path: folder.child("GARMIN"), readAt: Self.today)
        let problems = try SourceConformance.problems(of: FITAdapter(), input: input, catalog: MetricCatalog.bundled())
        #expect(problems.isEmpty, "\(problems)")
        let whole = try FITReadResult.read(folder.child("GARMIN"), readAt: Self.today)
        #expect(whole.checkpoints.count > 4)
    }
}
