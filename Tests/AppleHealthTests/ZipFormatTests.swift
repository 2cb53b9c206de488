import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

/// Reliability case Z3 (ZIP64, sizes and CRCs that lie) and the format's corners: damaged or
/// foreign files, names in CP437 or UTF-8.
@Suite struct ZipFormatTests {
    // MARK: - ZIP64

    @Test func tinyZip64FixtureReads() throws {
        let directory = TemporaryDirectory("zip-format")
        let content = ZipTestData.text(bytes: 70_000)
        var builder = ZipFixtureBuilder()
        let deflated = builder.addCompressed(
            "apple_health_export/export.xml", compressed: ZipTestDeflater.compress(content),
            crc32: ZipTestDeflater.crc32(content), uncompressedSize: UInt64(content.count))
        let stored = builder.addStored("apple_health_export/notes.txt", content)
        let streamed = builder.addStored("apple_health_export/streamed.txt", "streamed")
        for index in [deflated, stored, streamed] { builder.entries[index].zip64 = true }
        builder.entries[streamed].dataDescriptor = true
        builder.zip64EndRecord = true
        let archive = try ZipTestData.open(builder, in: directory)

        #expect(archive.entries.count == 3)
        #expect(archive.entries[0].uncompressedSize == 70_000)
        #expect(archive.entries[1].compressedSize == 70_000)
        #expect(archive.entries[1].localHeaderOffset > 0)
        #expect(try archive.contents(of: archive.entries[0]) == content)
        #expect(try archive.contents(of: archive.entries[1]) == content)
        #expect(try archive.contents(of: archive.entries[2]) == Array("streamed".utf8))
    }

    @Test func zip64SentinelWithoutItsExtraFieldIsACorruptDirectory() throws {
        let directory = TemporaryDirectory("zip-format")
        var builder = ZipFixtureBuilder()
        builder.addStored("a.txt", "hello")
        var bytes = builder.build()
        let central = try #require(Self.offsets(of: [0x50, 0x4b, 0x01, 0x02], in: bytes).first)
        for index in central + 20..<central + 24 { bytes[index] = 0xFF }  // compressed size → 0xFFFFFFFF

        let path = try ZipTestData.write(bytes, in: directory)
        let error = ZipTestData.zipError { _ = try ZipArchive(path: path) }
        #expect(error?.kind == .corruptDirectory)
        #expect(error?.entry == "a.txt")
    }

    /// A fixture made by Python's `zipfile` with `force_zip64=True` (ZIP64 local headers) and one
    /// with its limits lowered so the central directory and end record are ZIP64 too.
    @Test(
        .enabled(
            if: ZipPythonFixture.isAvailable,
            "python3 is not installed, so the Python-made ZIP64 fixtures cannot be generated"),
        arguments: [false, true])
    func zip64MadeByPythonReads(lowerLimits: Bool) throws {
        let directory = TemporaryDirectory("zip-format")
        let path = directory.child("python64.zip")
        let script = """
            import json, sys, zipfile
            path, lower = sys.argv[1], sys.argv[2] == "1"
            if lower:
                zipfile.ZIP64_LIMIT = 4
                zipfile.ZIP_FILECOUNT_LIMIT = 1
            xml = b'<?xml version="1.0"?>\\n<HealthData>' + b'<Record value="1"/>' * 5000 + b'</HealthData>\\n'
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
                with zf.open("apple_health_export/export.xml", "w", force_zip64=True) as f:
                    f.write(xml)
                info = zipfile.ZipInfo("apple_health_export/stored.txt")
                info.compress_type = zipfile.ZIP_STORED
                with zf.open(info, "w", force_zip64=True) as f:
                    f.write(b"stored by python")
            with zipfile.ZipFile(path) as zf:
                print(json.dumps([[i.filename, i.compress_size, i.file_size, i.CRC, i.header_offset, i.compress_type]
                                  for i in zf.infolist()]))
            """
        let listing = try ZipPythonFixture.run(script, arguments: [path, lowerLimits ? "1" : "0"])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[Any]])

        let archive = try ZipArchive(path: path)
        #expect(archive.entries.count == expected.count)
        for (entry, want) in zip(archive.entries, expected) {
            #expect(entry.name == want[0] as? String)
            #expect(entry.compressedSize == (want[1] as? NSNumber)?.uint64Value)
            #expect(entry.uncompressedSize == (want[2] as? NSNumber)?.uint64Value)
            #expect(entry.crc32 == (want[3] as? NSNumber)?.uint32Value)
            #expect(entry.localHeaderOffset == (want[4] as? NSNumber)?.uint64Value)
            #expect(entry.method == (want[5] as? NSNumber)?.uint16Value)
        }
        let xml =
            "<?xml version=\"1.0\"?>\n<HealthData>" + String(repeating: "<Record value=\"1\"/>", count: 5000)
            + "</HealthData>\n"
        #expect(try archive.contents(of: archive.entries[0]) == Array(xml.utf8))
        #expect(try archive.contents(of: archive.entries[1]) == Array("stored by python".utf8))
    }

    // MARK: - Sizes and CRCs that lie

    @Test func dataInflatingPastItsDeclaredSizeStopsThere() throws {
        let directory = TemporaryDirectory("zip-format")
        let content = ZipTestData.text(bytes: 100_000)
        var builder = ZipFixtureBuilder()
        builder.addCompressed(
            "long.xml", compressed: ZipTestDeflater.compress(content),
            crc32: ZipTestDeflater.crc32(Array(content.prefix(90_000))),
            uncompressedSize: 90_000)
        let archive = try ZipTestData.open(builder, in: directory)

        var delivered = 0
        let error = ZipTestData.zipError {
            try archive.read(archive.entries[0], chunkSize: 4096) { delivered += $0.count }
        }
        #expect(error?.kind == .sizeMismatch)
        #expect(error?.entry == "long.xml")
        #expect(delivered == 90_000)
    }

    @Test func dataEndingShortOfItsDeclaredSizeIsRejected() throws {
        let directory = TemporaryDirectory("zip-format")
        let content = ZipTestData.text(bytes: 100_000)
        var builder = ZipFixtureBuilder()
        builder.addCompressed(
            "short.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: 100_001)
        let stored = builder.addStored("short.txt", "12345")
        builder.entries[stored].uncompressedSize = 6
        let archive = try ZipTestData.open(builder, in: directory)

        for entry in archive.entries {
            let error = ZipTestData.zipError { _ = try archive.contents(of: entry) }
            #expect(error?.kind == .sizeMismatch, "\(entry.name)")
            #expect(error?.entry == entry.name)
        }
    }

    @Test func wrongCRCIsRejected() throws {
        let directory = TemporaryDirectory("zip-format")
        let content = ZipTestData.text(bytes: 10_000)
        var builder = ZipFixtureBuilder()
        let deflated = builder.addCompressed(
            "deflated.xml", compressed: ZipTestDeflater.compress(content),
            crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        let stored = builder.addStored("stored.xml", content)
        builder.entries[deflated].crc32 ^= 0x0000_0100
        builder.entries[stored].crc32 ^= 0x8000_0000
        let archive = try ZipTestData.open(builder, in: directory)

        for entry in archive.entries {
            #expect(
                ZipTestData.zipError { _ = try archive.contents(of: entry) }?.kind == .crcMismatch,
                "\(entry.name)")
        }
    }

    @Test func deflateStreamCutShortIsCorruptData() throws {
        let directory = TemporaryDirectory("zip-format")
        let content = ZipTestData.text(bytes: 50_000)
        let compressed = ZipTestDeflater.compress(content)
        var builder = ZipFixtureBuilder()
        builder.addCompressed(
            "cut.xml", compressed: Array(compressed.prefix(compressed.count / 2)),
            crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.addCompressed(
            "garbage.xml", compressed: [0xFF, 0xFF, 0xFF, 0xFF], crc32: 0, uncompressedSize: 10)
        let archive = try ZipTestData.open(builder, in: directory)

        for entry in archive.entries {
            #expect(
                ZipTestData.zipError { _ = try archive.contents(of: entry) }?.kind == .corruptData,
                "\(entry.name)")
        }
    }

    // MARK: - Damaged and foreign files

    @Test func randomGarbageIsNotAZip() throws {
        let directory = TemporaryDirectory("zip-format")
        var random = SeededGenerator(seed: 42)
        let samples: [[UInt8]] = [
            [],
            Array("<?xml version=\"1.0\"?><HealthData/>".utf8),
            (0..<100_000).map { _ in UInt8(truncatingIfNeeded: random.next()) },
            (0..<21).map { _ in UInt8(truncatingIfNeeded: random.next()) },
        ]
        for (index, sample) in samples.enumerated() {
            let path = try ZipTestData.write(sample, in: directory, name: "garbage-\(index).bin")
            #expect(
                ZipTestData.zipError { _ = try ZipArchive(path: path) }?.kind == .notAZip, "sample \(index)")
        }
    }

    @Test func truncatedZip64ArchiveWithACommentFailsCleanly() throws {
        let directory = TemporaryDirectory("zip-format")
        let content = ZipTestData.text(bytes: 30_000)
        var builder = ZipFixtureBuilder()
        let index = builder.addCompressed(
            "export.xml", compressed: ZipTestDeflater.compress(content),
            crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.entries[index].zip64 = true
        builder.zip64EndRecord = true
        builder.comment = Array("exported by a tool with a PK\u{05}\u{06} in its comment".utf8)
        let bytes = builder.build()
        #expect(try ZipArchive(path: try ZipTestData.write(bytes, in: directory)).entries.count == 1)

        var random = SeededGenerator(seed: 7)
        let cuts =
            (0..<100).map { _ in Int(random.next() % UInt64(bytes.count)) }
            + Array(bytes.count - 120..<bytes.count)
        for cut in cuts {
            let path = try ZipTestData.write(Array(bytes.prefix(cut)), in: directory, name: "cut.zip")
            let error = ZipTestData.zipError { _ = try ZipArchive(path: path) }
            #expect(
                [.notAZip, .truncated, .corruptDirectory].contains(error?.kind),
                "cut at \(cut): \(String(describing: error))")
        }
    }

    @Test func entryCountDisagreeingWithTheDirectoryIsCorrupt() throws {
        let directory = TemporaryDirectory("zip-format")
        var builder = ZipFixtureBuilder()
        builder.addStored("a.txt", "a")
        builder.addStored("b.txt", "b")
        var bytes = builder.build()
        let end = try #require(Self.offsets(of: [0x50, 0x4b, 0x05, 0x06], in: bytes).last)
        bytes[end + 8] = 3
        bytes[end + 10] = 3
        let path = try ZipTestData.write(bytes, in: directory)
        #expect(ZipTestData.zipError { _ = try ZipArchive(path: path) }?.kind == .corruptDirectory)

        bytes[end + 8] = 2
        bytes[end + 10] = 2
        bytes[end + 16] &+= 1  // the directory now starts one byte late
        let shifted = try ZipTestData.write(bytes, in: directory, name: "shifted.zip")
        #expect(ZipTestData.zipError { _ = try ZipArchive(path: shifted) }?.kind == .corruptDirectory)
    }

    @Test func missingFilesAndFoldersAreIOErrors() throws {
        let directory = TemporaryDirectory("zip-format")
        let missing = ZipTestData.zipError { _ = try ZipArchive(path: directory.child("absent.zip")) }
        #expect(missing?.kind == .io)
        #expect(missing?.message.contains("absent.zip") == true)
        #expect(ZipTestData.zipError { _ = try ZipArchive(path: directory.path) }?.kind == .io)
    }

    @Test func entryFromAnotherArchiveIsRefused() throws {
        let directory = TemporaryDirectory("zip-format")
        var first = ZipFixtureBuilder()
        first.addStored("a.txt", "first")
        first.addStored("b.txt", "second")
        var second = ZipFixtureBuilder()
        second.addStored("a-much-longer-name.txt", "other")
        let archive = try ZipTestData.open(first, in: directory, name: "first.zip")
        let other = try ZipTestData.open(second, in: directory, name: "second.zip")

        let error = ZipTestData.zipError { _ = try archive.contents(of: other.entries[0]) }
        #expect(error?.kind == .corruptDirectory)
        #expect(try archive.contents(of: archive.entries[1]) == Array("second".utf8))
    }

    @Test func emptyArchiveHasNoEntries() throws {
        let directory = TemporaryDirectory("zip-format")
        let archive = try ZipTestData.open(ZipFixtureBuilder(), in: directory)
        #expect(archive.entries.isEmpty)
        #expect(archive.fileSize == 22)
    }

    // MARK: - Names

    @Test func namesDecodeAsUTF8OrCP437() throws {
        let directory = TemporaryDirectory("zip-format")
        var builder = ZipFixtureBuilder()
        builder.addStored("apple_health_export/导出.xml", "flagged UTF-8")
        let unflagged = builder.addStored(
            "apple_health_export/exportación.xml", "UTF-8 without the flag, as macOS writes")
        builder.entries[unflagged].flags = 0
        // "Ça_ñ.xml" in code page 437, which is not valid UTF-8.
        builder.add(
            ZipFixtureBuilder.Entry(
                name: [0x80, 0x61, 0x5F, 0xA4, 0x2E, 0x78, 0x6D, 0x6C], method: 0, data: [], crc32: 0,
                uncompressedSize: 0))
        var withUnicodePath = ZipFixtureBuilder.Entry(
            name: Array("old.xml".utf8), method: 0, data: [], crc32: 0, uncompressedSize: 0)
        let utf8 = Array("nouveau_été.xml".utf8)
        withUnicodePath.centralExtra = Self.unicodePathField(for: Array("old.xml".utf8), utf8Name: utf8)
        builder.add(withUnicodePath)
        builder.addDirectory("apple_health_export/workout-routes/")
        let archive = try ZipTestData.open(builder, in: directory)

        #expect(
            archive.entries.map(\.name) == [
                "apple_health_export/导出.xml", "apple_health_export/exportación.xml", "Ça_ñ.xml",
                "nouveau_été.xml",
                "apple_health_export/workout-routes/",
            ])
        #expect(archive.entries.map(\.isDirectory) == [false, false, false, false, true])
    }

    // MARK: - Helpers

    static func offsets(of signature: [UInt8], in bytes: [UInt8]) -> [Int] {
        (0...(bytes.count - signature.count)).filter { Array(bytes[$0..<$0 + signature.count]) == signature }
    }

    /// An Info-ZIP Unicode Path extra field (0x7075): version 1, CRC-32 of the stored name, UTF-8 name.
    static func unicodePathField(for storedName: [UInt8], utf8Name: [UInt8]) -> [UInt8] {
        let crc = withUnsafeBytes(of: ZipCRC32.checksum(storedName).littleEndian) { Array($0) }
        var field: [UInt8] = []
        ZipExtraField(id: ZipFormat.unicodePathExtraFieldID, data: [1] + crc + utf8Name).append(to: &field)
        return field
    }
}

/// Runs python3 scripts to make fixtures with a ZIP writer other than our own.
enum ZipPythonFixture {
    static let isAvailable: Bool = (try? run("import zipfile", arguments: [])) != nil

    /// Runs `script` with `arguments` and returns its standard output; throws if it fails.
    static func run(_ script: String, arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PythonFailed(status: process.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }

    struct PythonFailed: Error {
        var status: Int32
    }
}
