import Foundation
import HealthETLCore
import HealthETLStore
import HealthETLTestSupport
import Testing

@testable import HealthETLRuntime

/// What the exports stand on: the reader thread, the output file, the day filter.
@Suite struct ExportPlumbingTests {
    let directory = TemporaryDirectory()

    struct Refused: Error {}

    /// A store of `count` heart-rate samples, one a minute.
    func store(samples count: Int) throws -> StoreDirectory {
        let location = StoreDirectory(path: directory.child("store"))
        let store = try Store(directory: location, clock: .fixed(RecordFixtures.now))
        try store.commit(
            CommitBatch(
                stream: "test", samples: (0..<count).map { LanedSample(RecordFixtures.sample(index: $0), lane: .cold) },
                cursors: [.cold: 1]))
        return location
    }

    @Test func theReaderHandsEverySampleOverInOrder() throws {
        let location = try store(samples: 10_000)
        let reader = ThreadedSampleReader(
            directory: location, selection: SampleSelection(metrics: ["heart_rate"]), clock: .fixed(RecordFixtures.now))
        var names = ExportNames()
        var starts: [Int64] = []
        try reader.forEach {
            names = $0
        } _: {
            starts.append($0.start.millisecondsSinceEpoch)
        }
        #expect(starts.count == 10_000)
        #expect(starts == starts.sorted())
        #expect(names.metrics.contains("heart_rate"))
    }

    @Test func aFailingWriterStopsTheReaderAndItsErrorComesBack() throws {
        let location = try store(samples: 30_000)
        let reader = ThreadedSampleReader(
            directory: location, selection: SampleSelection(metrics: ["heart_rate"]), clock: .fixed(RecordFixtures.now))
        var seen = 0
        #expect(throws: Refused.self) {
            try reader.forEach { _ in
            } _: { _ in
                seen += 1
                if seen == 5_000 { throw Refused() }
            }
        }
        #expect(seen == 5_000)
        // The reader is gone with its connection: the store can be removed and opened afresh.
        let store = try Store(directory: location, clock: .fixed(RecordFixtures.now))
        #expect(try store.status().samples.total == 30_000)
    }

    @Test func anUnfinishedOutputLeavesNothingAndAFinishedOneIsPrivate() throws {
        let path = directory.child("out.csv")
        do {
            let output = try ExportOutput(path: path)
            try output.append { $0.append(contentsOf: Array("half".utf8)) }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        let output = try ExportOutput(path: path)
        try output.append { $0.append(contentsOf: Array("whole\n".utf8)) }
        try output.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "whole\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aNamedPipeIsWrittenThroughNotReplaced() throws {
        let pipe = directory.child("pipe")
        #expect(mkfifo(pipe, 0o600) == 0)
        let received = ReceivedBytes()
        let reading = Thread {
            received.set(FileHandle(forReadingAtPath: pipe)?.readDataToEndOfFile() ?? Data())
        }
        reading.start()
        let output = try ExportOutput(path: pipe)
        try output.append { $0.append(contentsOf: Array("through the pipe\n".utf8)) }
        try output.finish()
        let text = received.wait()
        #expect(String(decoding: text, as: UTF8.self) == "through the pipe\n")
        var status = stat()
        #expect(lstat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(!FileManager.default.fileExists(atPath: pipe + ".partial"))
    }

    /// Starts relative to 2024-03-01T00:00:00Z, each at its own offset, and whether 2024-03-01
    /// is its local day.
    static let dayEdges: [(secondsAfterMidnight: Int64, offset: Int32, covered: Bool)] = [
        (0, 0, true), (-1, 0, false), (-3_600, 3_600, true), (-1, 3_600, true), (86_399, 0, true), (86_400, 0, false),
        (86_400 + 43_199, -43_200, true), (-50_400, 50_400, true), (-50_401, 50_400, false),
    ]

    @Test(arguments: dayEdges)
    func aSamplesDayIsItsStartAtItsOwnOffset(edge: (secondsAfterMidnight: Int64, offset: Int32, covered: Bool)) {
        let (secondsAfterMidnight, offset, covered) = edge
        let day = CivilDate(year: 2024, month: 3, day: 1)!
        let request = ExportRequest(format: .csv, from: day, to: day, output: "-")
        let start = Instant(secondsSinceEpoch: day.daysSinceEpoch * 86_400 + secondsAfterMidnight)
        let sample = ExportedSample(
            id: ContentID(high: 0, low: 0), metric: 0, source: 0, start: start, end: start, utcOffsetSeconds: offset)
        #expect(request.covers(sample) == covered)
        // The store is asked for every start that can be on the day at some offset.
        #expect(request.startWindow!.contains(start) || !covered)
    }
}

/// Bytes a reading thread hands back once.
private final class ReceivedBytes: @unchecked Sendable {
    private var bytes = Data()
    private let done = DispatchSemaphore(value: 0)

    func set(_ data: Data) {
        bytes = data
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        return bytes
    }
}
