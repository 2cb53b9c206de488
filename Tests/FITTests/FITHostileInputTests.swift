import Foundation
import HealthETLCore
import HealthETLFIT
import HealthETLTestSupport
import Testing

@testable import FIT
@testable import Synthetic

/// Hostile and damaged FIT input: each a refusal with its reason and byte, nothing else lost, in
/// bounded time and memory.
struct FITHostileInputTests {
    /// A folder with one good file beside `bad`: the good one is read whole whatever `bad` is.
    private func readBeside(_ bad: [UInt8]) throws -> FITReadResult {
        let folder = TemporaryDirectory("fit-hostile")
        try Data(FITTestFile.heartRates(30)).write(to: URL(fileURLWithPath: folder.child("a-good.fit")))
        try Data(bad).write(to: URL(fileURLWithPath: folder.child("b-bad.fit")))
        return try FITReadResult.read(folder.path)
    }

    @Test func aFileFailingItsCRCIsRefusedWholeAndTheRestRead() throws {
        var file = FITTestFile.heartRates(20)
        file[40] ^= 0x01
        let result = try readBeside(file)
        #expect(result.records.count == 30)
        #expect(!result.report.complete)
        #expect(result.report.problem?.contains("b-bad.fit: the FIT file at byte 0 fails its CRC check") == true)
        #expect(result.report.warnings["fit_files_refused"] == 1)
    }

    @Test func aBadHeaderCRCIsRefused() throws {
        var file = FITTestFile.heartRates(20)
        file[12] ^= 0xFF
        let result = try readBeside(file)
        #expect(result.records.count == 30)
        #expect(result.report.problem?.contains("header's CRC does not match") == true)
    }

    /// A file cut inside a message keeps every message before the cut.
    @Test func aFileCutOffMidMessageKeepsWhatCameBefore() throws {
        let whole = FITTestFile.heartRates(20)
        let result = try readBeside(Array(whole.prefix(whole.count - 2 - 3)))
        #expect(result.records.count == 30 + 19)
        #expect(result.report.problem?.contains("is cut off after") == true)
    }

    @Test func aDataMessageForAnUndefinedLocalTypeEndsTheFileThere() throws {
        var encoder = FITFileEncoder()
        encoder.define(1, FITTestFile.record())
        encoder.write(1, [253: .time(FITTestFile.start), 3: .int(70)])
        var file = encoder.finished()
        // A normal header for local type 9, never defined, then the CRC made to match.
        let bodyEnd = file.count - 2
        file.insert(contentsOf: [0x09, 1, 2, 3, 4, 5], at: bodyEnd)
        file = Self.resealed(file)
        let result = try readBeside(file)
        #expect(result.records.count == 31)
        #expect(result.report.problem?.contains("local type 9, which no definition set up (byte") == true)
    }

    /// 255 fields of 255 bytes: a 65 KB message, read (and passed over) like any other.
    @Test func aDefinitionOf255FieldsOf255BytesIsReadInBoundedMemory() throws {
        var encoder = FITFileEncoder()
        let fields = (0..<255).map { Synthetic.FITFieldDefinition(UInt8($0), .byte, count: 255) }
        encoder.define(0, Synthetic.FITMessageDefinition("message_9999", 9999, fields))
        for _ in 0..<50 { encoder.write(0, [:]) }
        let result = try readBeside(encoder.finished())
        #expect(result.records.count == 30)
        #expect(result.report.complete)
    }

    @Test func aHeaderClaimingFourGigabytesIsRefusedBeforeAnythingIsHeld() throws {
        var file = FITTestFile.heartRates(2)
        file.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        file[12] = 0
        file[13] = 0
        let result = try readBeside(file)
        #expect(result.records.count == 30)
        #expect(result.report.problem?.contains("declares 4294967295 data bytes") == true)
    }

    /// A monitoring file whose first message carries only `timestamp_16`: nothing says its day.
    @Test func aTimestamp16BeforeAnyFullTimeDatesNothing() throws {
        var encoder = FITFileEncoder()
        encoder.define(
            0,
            Synthetic.FITMessageDefinition(
                "monitoring", 55, [Synthetic.FITFieldDefinition(26, .uint16), Synthetic.FITFieldDefinition(27, .uint8)])
        )
        encoder.write(0, [26: .int(1234), 27: .int(70)])
        let result = try readBeside(encoder.finished())
        #expect(result.records.count == 30)
        #expect(result.report.warnings["monitoring_without_time"] == 1)
    }

    /// A file may declare a field with any base type: beat intervals and a session's time as
    /// float64 of 1e300 are counted out of range, never converted into an integer that traps
    /// (what libFuzzer found), and the valid beat beside them is read.
    @Test func durationsBeyondAnyFITTimeAreCountedNotConverted() throws {
        let huge = FITValue.int(Int64(bitPattern: (1e300 as Double).bitPattern))
        var encoder = FITFileEncoder()
        encoder.define(0, FITTestFile.fileID)
        encoder.write(0, [0: .int(4), 1: .int(1), 2: .int(2697), 4: .time(FITTestFile.start)])
        encoder.define(1, FITTestFile.record())
        encoder.write(1, [253: .time(FITTestFile.start), 3: .int(60)])
        encoder.define(
            2, Synthetic.FITMessageDefinition("hrv", 78, [Synthetic.FITFieldDefinition(0, .float64, count: 2)]))
        encoder.write(
            2,
            [
                0: .ints([
                    Int64(bitPattern: (1e300 as Double).bitPattern), Int64(bitPattern: (800.0 as Double).bitPattern),
                ])
            ])
        encoder.define(
            3,
            Synthetic.FITMessageDefinition(
                "session", 18, [Synthetic.FITFieldDefinition(253, .uint32), Synthetic.FITFieldDefinition(7, .float64)]))
        encoder.write(3, [253: .time(FITTestFile.start + 60), 7: huge])
        let result = try FITReadResult.read(bytes: encoder.finished())
        #expect(result.report.warnings["beat_interval_out_of_range"] == 1)
        #expect(result.report.warnings["session_time_out_of_range"] == 1)
        #expect(result.records("hrv", "time").map(\.value) == [.number(0.8)])
    }

    /// A zip of zips 50 deep is read to the nesting limit and refused below it, quickly.
    @Test func aZipOfZipsFiftyDeepIsRefusedAtTheNestingLimit() throws {
        var archive = Self.zip("inner.fit", FITTestFile.heartRates(3))
        for level in 0..<50 { archive = Self.zip("level\(level).zip", archive) }
        let folder = TemporaryDirectory("fit-nested")
        try Data(archive).write(to: URL(fileURLWithPath: folder.child("nested.zip")))
        let started = Date()
        let result = try FITReadResult.read(folder.child("nested.zip"))
        #expect(result.records.isEmpty)
        #expect(result.report.problem?.contains("nested 9 deep is not read") == true)
        #expect(Date().timeIntervalSince(started) < 60)
    }

    /// A `.fit.gz` of a gigabyte of zeros: no FIT header, refused at once, memory flat.
    @Test func aGzipBombIsRefused() throws {
        let folder = TemporaryDirectory("fit-gzip-bomb")
        try Data(count: 64 << 20).write(to: URL(fileURLWithPath: folder.child("bomb.fit")))
        let gzip = try CommandRunner(executable: "/bin/gzip").run([folder.child("bomb.fit")])
        #expect(gzip.exitCode == 0, "\(gzip.standardError)")
        try Data(FITTestFile.heartRates(30)).write(to: URL(fileURLWithPath: folder.child("good.fit")))
        let result = try FITReadResult.read(folder.path)
        #expect(result.records.count == 30)
        #expect(result.report.problem?.contains("bomb.fit.gz: not a FIT file header") == true)
    }

    /// A zip holding `content` stored as `name`.
    static func zip(_ name: String, _ content: [UInt8]) -> [UInt8] {
        var builder = ZipFixtureBuilder()
        _ = builder.addStored(name, content)
        return builder.build()
    }

    /// `file` with its CRC computed again over its (changed) bytes and its header's size fixed.
    static func resealed(_ file: [UInt8]) -> [UInt8] {
        var body = Array(file.dropLast(2))
        let dataSize = UInt32(body.count - 14)
        for index in 0..<4 { body[4 + index] = UInt8(truncatingIfNeeded: dataSize >> (8 * UInt32(index))) }
        body[12] = 0
        body[13] = 0
        let crc = body.withUnsafeBytes { FITCRC.of($0) }
        return body + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }
}
