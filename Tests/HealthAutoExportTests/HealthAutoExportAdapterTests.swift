import Foundation
import HealthETLCore
import HealthETLTestSupport
import Synthetic
import Testing

@testable import HealthAutoExport

/// The adapter over generated files of every style, alone, in a folder and in a zip: every point
/// becomes a record, in the lane its end decides; damage stops a file where it is, keeping what
/// came before; hostile sizes are refused before they cost memory.
@Suite struct HealthAutoExportAdapterTests {
    let directory = TemporaryDirectory("healthetl-hae-adapter")
    static let writtenAt = Instant(secondsSinceEpoch: 1_800_000_000)

    /// Counts what the adapter hands on.
    struct Counter: SourceEventHandler {
        var records = 0
        var hot = 0
        var correlations = 0
        var workouts = 0
        var checkpoints: [Int64] = []
        var streams: [String] = []

        mutating func receive(_ event: SourceEvent) throws {
            switch event {
            case .record(_, let lane), .correlationComponent(_, let lane):
                records += 1
                if lane == .hot { hot += 1 }
            case .correlation: correlations += 1
            case .workout: workouts += 1
            case .checkpoint(let cursor): checkpoints.append(cursor.position)
            case .streamStarted(let stream, _, _, _, _): streams.append(stream)
            default: break
            }
        }
    }

    func generate(_ name: String, days: Int = 3, styles: (inout HealthAutoExportFileOptions) -> Void = { _ in })
        throws -> (String, HealthAutoExportFileSummary)
    {
        var options = HealthAutoExportFileOptions(path: directory.child(name), days: days, seed: 7)
        styles(&options)
        let summary = try HealthAutoExportFileGenerator(options: options, clock: .fixed(Self.writtenAt)).run()
        return (options.path, summary)
    }

    func read(_ path: String, hotWindowDays: Int64 = 1) throws -> (Counter, SourceReadReport) {
        var counter = Counter()
        let input = SourceInput(path: path, hotWindowSeconds: hotWindowDays * 86_400, readAt: Self.writtenAt)
        let report = try HealthAutoExportAdapter().read(input, into: &counter)
        return (counter, report)
    }

    struct Style: Sendable, CustomStringConvertible {
        let format: Int
        let summarized: Bool
        let twelveHour: Bool
        let envelope: Bool
        var mixedOrder = false
        var description: String {
            "v\(format) summarized:\(summarized) 12h:\(twelveHour) envelope:\(envelope) mixed order:\(mixedOrder)"
        }
    }

    @Test(arguments: [
        Style(format: 2, summarized: false, twelveHour: false, envelope: true),
        Style(format: 2, summarized: true, twelveHour: true, envelope: false),
        Style(format: 1, summarized: true, twelveHour: false, envelope: true),
        Style(format: 1, summarized: false, twelveHour: true, envelope: true),
        Style(format: 2, summarized: false, twelveHour: false, envelope: true, mixedOrder: true),
        Style(format: 2, summarized: true, twelveHour: false, envelope: true, mixedOrder: true),
        Style(format: 1, summarized: false, twelveHour: true, envelope: false, mixedOrder: true),
    ])
    func everyPointOfEveryStyleIsRead(_ style: Style) throws {
        let (path, written) = try generate("style.json") {
            $0.format = style.format
            $0.summarized = style.summarized
            $0.twelveHour = style.twelveHour
            $0.envelope = style.envelope
            $0.mixedMemberOrder = style.mixedOrder
        }
        #expect(HealthAutoExportAdapter().recognize(SourceInput(path: path)) == .recognized)
        let (counter, report) = try read(path)
        #expect(report.complete, "\(report.problem ?? "")")
        #expect(report.warnings.isEmpty)
        #expect(counter.records == written.records)
        #expect(counter.correlations == written.points["blood_pressure"])
        #expect(counter.workouts == written.workouts)
        #expect(counter.streams == [HealthAutoExportAdapter.fileStream])
        // The last day is within a day of the writing: hot; the days before are cold.
        #expect(counter.hot > 0 && counter.hot < counter.records)
        #expect(counter.checkpoints.last == written.bytes)
    }

    /// The records a read hands on, in order.
    struct Recorder: SourceEventHandler {
        var records: [RawRecord] = []

        mutating func receive(_ event: SourceEvent) throws {
            switch event {
            case .record(let record, _), .correlationComponent(let record, _): records.append(record)
            default: break
            }
        }
    }

    @Test(arguments: [1, 2])
    func aFileWithItsMembersInEveryOrderReadsAsTheNameFirstOne(_ format: Int) throws {
        func records(mixed: Bool) throws -> [RawRecord] {
            let (path, _) = try generate("order-\(format)-\(mixed).json") {
                $0.format = format
                $0.mixedMemberOrder = mixed
            }
            var recorder = Recorder()
            _ = try HealthAutoExportAdapter().read(
                SourceInput(path: path, hotWindowSeconds: 86_400, readAt: Self.writtenAt), into: &recorder)
            return recorder.records
        }
        let nameFirst = try records(mixed: false)
        #expect(nameFirst.count > 100)
        #expect(try records(mixed: true) == nameFirst)
    }

    @Test func aFolderAndAZipReadEveryFileInOrder() throws {
        let (first, one) = try generate("a.json", days: 2)
        let (second, two) = try generate("b.json", days: 3) { $0.summarized = true }
        let folder = directory.child("folder/nested")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: first, toPath: directory.child("folder/a.json"))
        try FileManager.default.copyItem(atPath: second, toPath: folder + "/b.json")
        try Data("not for us".utf8).write(to: URL(fileURLWithPath: directory.child("folder/notes.txt")))
        let (fromFolder, folderReport) = try read(directory.child("folder"))
        #expect(folderReport.complete)
        #expect(fromFolder.records == one.records + two.records)

        var zip = ZipFixtureBuilder()
        _ = zip.addStored("exports/a.json", Array(try Data(contentsOf: URL(fileURLWithPath: first))))
        _ = zip.addStored("exports/b.json", Array(try Data(contentsOf: URL(fileURLWithPath: second))))
        _ = zip.addStored("__MACOSX/exports/._a.json", [0, 5, 22, 7])
        let zipPath = directory.child("exports.zip")
        try zip.write(to: zipPath)
        #expect(HealthAutoExportAdapter().recognize(SourceInput(path: zipPath)) == .recognized)
        let (fromZip, zipReport) = try read(zipPath)
        #expect(zipReport.complete)
        #expect(fromZip.records == one.records + two.records)
        #expect(fromZip.checkpoints.last == one.bytes + two.bytes)
    }

    @Test func otherInputsAreNotRecognized() throws {
        let paths = [
            ("export.xml", "<?xml version=\"1.0\"?><HealthData></HealthData>"),
            ("list.json", "[1, 2, 3]"),
            ("other.json", "{\"name\": \"something else\"}"),
        ]
        for (name, text) in paths {
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory.child(name)))
            #expect(HealthAutoExportAdapter().recognize(SourceInput(path: directory.child(name))) != .recognized)
        }
    }

    @Test func aTruncatedFileKeepsWhatCameBeforeTheDamage() throws {
        let (path, written) = try generate("whole.json")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = directory.child("cut.json")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let (counter, report) = try read(cut)
        #expect(!report.complete)
        #expect(report.problem?.contains("ends inside") == true, "\(report.problem ?? "")")
        #expect(report.warnings["unreadable_json"] == 1)
        #expect(counter.records > 0 && counter.records < written.records)
    }

    @Test func notJSONIsSaidWithWhere() throws {
        for (name, text, expected) in [
            ("garbage.json", "{\"data\": {\"metrics\": [ nonsense ]}}", "at byte 24"),
            (
                "comma.json", "{\"data\": {\"metrics\": [{\"name\": \"step_count\", \"data\": [{\"qty\": 1,}]}]}}",
                "at byte 64"
            ),
        ] {
            let path = directory.child(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let (_, report) = try read(path)
            #expect(!report.complete)
            #expect(report.problem?.contains(expected) == true, "\(report.problem ?? "")")
        }
    }

    @Test func wrongTypesAreWarnedOfAndReadPast() throws {
        let path = directory.child("types.json")
        let text = """
            {"data": {"metrics": [{"name": "step_count", "units": "count", "data": {"qty": 1}},
                                  {"name": "step_count", "units": "count",
                                   "data": [{"qty": 5, "date": "2024-02-06 14:00:00 -0800"}]}],
                      "workouts": "none", "symptoms": 3}}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let (counter, report) = try read(path)
        #expect(report.complete)
        #expect(counter.records == 1)
        #expect(
            report.warnings == [
                "not_an_array:metrics[].data": 1, "not_an_array:workouts": 1, "not_an_array:symptoms": 1,
            ])
    }

    @Test func aHundredMegabyteStringIsRefusedAtTheLimit() throws {
        let path = directory.child("huge.json")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data("{\"data\": {\"metrics\": [{\"name\": \"".utf8))
        let block = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<100 { try handle.write(contentsOf: block) }
        try handle.write(contentsOf: Data("\", \"data\": []}]}}".utf8))
        try handle.close()
        let (counter, report) = try read(path)
        #expect(!report.complete)
        #expect(report.problem?.contains("string") == true, "\(report.problem ?? "")")
        #expect(counter.records == 0)
    }

    @Test func aPushedBodyIsReadWholeOrRefusedWhole() throws {
        let (path, written) = try generate("push.json", days: 1) { $0.envelope = false }
        let body = try Data(contentsOf: URL(fileURLWithPath: path))
        let read = try body.withUnsafeBytes { try HealthAutoExportAdapter.events(ofBody: $0, catalog: .bundled()) }
        let records = read.events.filter {
            switch $0 {
            case .record(_, let lane), .correlationComponent(_, let lane): lane == .hot
            default: false
            }
        }
        #expect(records.count == written.records)
        #expect(throws: HealthAutoExportError.self) {
            try body.prefix(body.count - 3).withUnsafeBytes {
                try HealthAutoExportAdapter.events(ofBody: $0, catalog: .bundled())
            }
        }
    }
}

/// The shared source conformance suite for `health_auto_export`, on a generated file of each
/// format.
@Suite struct HealthAutoExportConformanceTests {
    let directory = TemporaryDirectory("healthetl-hae-conformance")

    @Test(arguments: [1, 2])
    func aGeneratedFilePassesTheSharedConformanceSuite(_ format: Int) throws {
        let options = HealthAutoExportFileOptions(path: directory.child("v\(format).json"), days: 2, format: format)
        _ = try HealthAutoExportFileGenerator(options: options).run()
        let problems = try SourceConformance.problems(
            of: HealthAutoExportAdapter(), input: SourceInput(path: options.path), catalog: .bundled())
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
