import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

@testable import Synthetic

/// The streaming zip writer, checked against the project's reader, python3's zipfile and unzip.
@Suite struct ZipWriterTests {
    static let stamp = ZipTimestamp(year: 2024, month: 12, day: 2, hour: 7, minute: 41, second: 27)

    /// Entries of every shape: empty, tiny, non-ASCII name, incompressible and very compressible.
    static let entries: [(name: String, bytes: [UInt8])] = {
        var random = SplitMix64(state: 42)
        var noise: [UInt8] = []
        noise.reserveCapacity(3 << 20)
        while noise.count < 3 << 20 {
            withUnsafeBytes(of: random.next().littleEndian) { noise.append(contentsOf: $0) }
        }
        var text: [UInt8] = []
        var line = 0
        while text.count < 5 << 20 {
            text.append(
                contentsOf: " <Record type=\"HKQuantityTypeIdentifierStepCount\" value=\"\(line % 97)\"/>\n"
                    .utf8)
            line += 1
        }
        return [
            ("apple_health_export/empty.txt", []),
            ("apple_health_export/small.txt", Array("hello, zip\n".utf8)),
            ("apple_health_export/noise.bin", noise),
            ("apple_health_export/données-répétées.xml", text),
        ]
    }()

    /// Writes `entries`, each in uneven chunks so buffer boundaries fall everywhere.
    static func write(
        _ entries: [(name: String, bytes: [UInt8])], to path: String, forceZip64: Bool = false
    ) throws -> UInt64 {
        let zip = try ZipWriter(path: path, modified: stamp, forceZip64: forceZip64)
        for (index, entry) in entries.enumerated() {
            try zip.beginEntry(entry.name)
            var offset = 0
            var chunk = 1 + index * 7919
            while offset < entry.bytes.count {
                let end = min(entry.bytes.count, offset + chunk)
                try zip.write(Array(entry.bytes[offset..<end]))
                offset = end
                chunk = chunk * 3 % 1_000_003 + 1
            }
            try zip.endEntry()
        }
        return try zip.finish()
    }

    static func expectReadable(_ path: String, zip64: Bool) throws {
        let project = try ZipReaders.project(path)
        #expect(project.map(\.name) == entries.map(\.name))
        for (read, written) in zip(project, entries) {
            #expect(read.bytes == written.bytes, "project reader, \(written.name)")
        }

        let python = try ZipReaders.python(path)
        #expect(python.map(\.entry.name) == entries.map(\.name))
        for (read, written) in zip(python, entries) {
            #expect(read.bytes == written.bytes, "python zipfile, \(written.name)")
            #expect(read.entry.size == UInt64(written.bytes.count))
            #expect(read.entry.extractVersion == (zip64 ? 45 : 20))
            // MS-DOS time keeps even seconds: 07:41:27 is stored as 07:41:26.
            #expect(read.entry.dateTime == [2024, 12, 2, 7, 41, 26])
            #expect(read.entry.mode == 0o100600)
        }

        #expect(try ZipReaders.projectSeesZip64End(path) == zip64)
        if let status = try ZipReaders.unzipTest(path) {
            #expect(status == 0, "unzip -t")
        }
    }

    @Test func roundTripsThroughEveryReader() throws {
        let directory = TemporaryDirectory("zip-writer")
        let path = directory.child("export.zip")
        let size = try Self.write(Self.entries, to: path)
        #expect(size == UInt64(try fileSize(path)))
        try Self.expectReadable(path, zip64: false)
    }

    @Test func forcedZip64RecordsAreAccepted() throws {
        let directory = TemporaryDirectory("zip-writer")
        let path = directory.child("export64.zip")
        _ = try Self.write(Self.entries, to: path, forceZip64: true)
        try Self.expectReadable(path, zip64: true)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // The ZIP64 end record (PK\6\6) and its locator (PK\6\7) precede the classic end record.
        let tail = Array(bytes.suffix(22 + 20 + 56))
        #expect(tail.prefix(4) == [0x50, 0x4B, 0x06, 0x06])
        #expect(Array(tail[56..<60]) == [0x50, 0x4B, 0x06, 0x07])
    }

    @Test func moreEntriesThanTheClassicCountHoldsUseZip64() throws {
        let directory = TemporaryDirectory("zip-writer")
        let path = directory.child("many.zip")
        let count = 65_536 + 9
        let zip = try ZipWriter(path: path, modified: Self.stamp)
        for index in 0..<count {
            try zip.beginEntry("e/\(index)")
            if index % 1000 == 0 { try zip.write(Array("entry \(index)".utf8)) }
            try zip.endEntry()
        }
        try zip.finish()

        #expect(try ZipReaders.projectSeesZip64End(path))
        let project = try ZipReaders.project(path)
        #expect(project.count == count)
        #expect(project[65_000].name == "e/65000")
        #expect(project[65_000].bytes == Array("entry 65000".utf8))
        #expect(project[65_001].bytes.isEmpty)
        #expect(try ZipReaders.pythonEntryCount(path) == count)
        if let status = try ZipReaders.unzipTest(path) {
            #expect(status == 0, "unzip -t")
        }
    }

    @Test func sameCallsWriteIdenticalBytes() throws {
        let directory = TemporaryDirectory("zip-writer")
        for forceZip64 in [false, true] {
            let first = directory.child("first-\(forceZip64).zip")
            let second = directory.child("second-\(forceZip64).zip")
            _ = try Self.write(Self.entries, to: first, forceZip64: forceZip64)
            _ = try Self.write(Self.entries, to: second, forceZip64: forceZip64)
            let a = try Data(contentsOf: URL(fileURLWithPath: first))
            let b = try Data(contentsOf: URL(fileURLWithPath: second))
            #expect(a == b, "forceZip64: \(forceZip64)")
        }
    }

    @Test func archiveIsPrivateAndOnlyTheFinishedFileRemains() throws {
        let directory = TemporaryDirectory("zip-writer")
        let path = directory.child("export.zip")
        let zip = try ZipWriter(path: path, modified: Self.stamp)
        try zip.beginEntry("a.txt")
        try zip.write(Array("a".utf8))
        #expect(FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try permissions(path + ".partial") == 0o600)
        try zip.finish()
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(try permissions(path) == 0o600)
        #expect(throws: (any Error).self) { try zip.beginEntry("late.txt") }
    }

    @Test func unwritableDestinationFailsWithoutLeavingAPartialFile() throws {
        let directory = TemporaryDirectory("zip-writer")
        // A regular file where a directory should be: not writable, even for root.
        let blocker = directory.child("not-a-directory")
        _ = FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8))
        let path = blocker + "/export.zip"
        do {
            _ = try ZipWriter(path: path, modified: Self.stamp)
            Issue.record("creating \(path) should fail")
        } catch {
            #expect("\(error)".contains(path + ".partial"), "the error names the file: \(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["not-a-directory"])
    }

    @Test func failureToPublishRemovesThePartialFile() throws {
        let directory = TemporaryDirectory("zip-writer")
        // An existing, non-empty directory: rename(2) cannot replace it with the archive.
        let path = directory.child("taken")
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        let zip = try ZipWriter(path: path, modified: Self.stamp)
        try zip.beginEntry("a.txt")
        try zip.write(Array("a".utf8))
        #expect(throws: (any Error).self) { try zip.finish() }
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["inside"])
        // The writer stays failed: later calls throw instead of writing anything.
        #expect(throws: (any Error).self) { try zip.beginEntry("b.txt") }
    }

    @Test func abandonedWriterRemovesThePartialFile() throws {
        let directory = TemporaryDirectory("zip-writer")
        let path = directory.child("export.zip")
        do {
            let zip = try ZipWriter(path: path, modified: Self.stamp)
            try zip.beginEntry("a.txt")
            try zip.write(Array("a".utf8))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func staleSymbolicLinkAtThePartialPathIsNotFollowed() throws {
        let directory = TemporaryDirectory("zip-writer")
        let path = directory.child("export.zip")
        let victim = directory.child("victim.txt")
        _ = FileManager.default.createFile(atPath: victim, contents: Data("keep me".utf8))
        try FileManager.default.createSymbolicLink(atPath: path + ".partial", withDestinationPath: victim)
        _ = try Self.write(Array(Self.entries.prefix(2)), to: path)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(try ZipReaders.project(path).map(\.name) == Self.entries.prefix(2).map(\.name))
    }

    @Test func misuseIsReportedNotWritten() throws {
        let directory = TemporaryDirectory("zip-writer")
        let zip = try ZipWriter(path: directory.child("a.zip"), modified: Self.stamp)
        #expect(throws: (any Error).self) { try zip.write(Array("no entry open".utf8)) }
        let second = try ZipWriter(path: directory.child("b.zip"), modified: Self.stamp)
        try second.beginEntry("x")
        try second.endEntry()
        #expect(throws: (any Error).self) { try second.beginEntry("x") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
