import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

/// `ZipStreamReader`, the front-to-back reader for archives inside archives: it reads what
/// `ZipArchive` reads, whatever the pieces the bytes come in, and every shape of entry a
/// streaming writer makes (data descriptors signed or not, ZIP64 sizes), nested to any depth.
@Suite struct ZipStreamReaderTests {
    /// Stored and deflated entries, a directory, names in UTF-8, CP437 and an Info-ZIP Unicode
    /// Path field, an empty file, and a large one that spans many output chunks.
    static func mixedArchive() -> [UInt8] {
        var builder = ZipFixtureBuilder()
        let large = ZipTestData.text(bytes: 300_000)
        builder.addDirectory("activities/")
        builder.addStored("activities/stored.txt", "stored, as it is")
        builder.addCompressed(
            "activities/large.xml", compressed: ZipTestDeflater.compress(large),
            crc32: ZipTestDeflater.crc32(large), uncompressedSize: UInt64(large.count))
        builder.addStored("activities/empty.txt", [])
        builder.addCompressed(
            "activities/empty-deflated.txt", compressed: ZipTestDeflater.compress([]), crc32: 0, uncompressedSize: 0)
        builder.addStored("activities/导出.xml", "<HealthData/>")
        builder.add(
            ZipFixtureBuilder.Entry(
                name: [0x80, 0x61, 0x5F, 0xA4, 0x2E, 0x78, 0x6D, 0x6C], method: 0, data: Array("cp437".utf8),
                crc32: ZipTestDeflater.crc32(Array("cp437".utf8)), uncompressedSize: 5))
        var withUnicodePath = ZipFixtureBuilder.Entry(
            name: Array("old.xml".utf8), method: 0, data: [], crc32: 0, uncompressedSize: 0)
        withUnicodePath.localExtra = ZipFormatTests.unicodePathField(
            for: Array("old.xml".utf8), utf8Name: Array("nouveau_été.xml".utf8))
        withUnicodePath.centralExtra = withUnicodePath.localExtra
        builder.add(withUnicodePath)
        return builder.build()
    }

    // MARK: - The same as ZipArchive

    @Test func streamReadEqualsArchiveReadForEveryShape() throws {
        let directory = TemporaryDirectory("zip-stream")
        try ZipStreamTestData.expectStreamReadEqualsArchiveRead(Self.mixedArchive(), in: directory)
        let streamed = try ZipStreamTestData.read(Self.mixedArchive())
        #expect(
            streamed.map(\.entry.name) == [
                "activities/", "activities/stored.txt", "activities/large.xml", "activities/empty.txt",
                "activities/empty-deflated.txt", "activities/导出.xml", "Ça_ñ.xml", "nouveau_été.xml",
            ])
        #expect(streamed.map(\.entry.isDirectory) == [true] + Array(repeating: false, count: 7))
        #expect(streamed.map(\.entry.method) == [0, 0, 8, 0, 8, 0, 0, 0])
        #expect(streamed.allSatisfy { !$0.entry.hasDataDescriptor && $0.entry.crc32 != nil })
    }

    /// The export fixture the importer's tests use, stored and deflated: the same as in place.
    @Test(arguments: [false, true]) func exportFixtureReadsTheSame(deflated: Bool) throws {
        let directory = TemporaryDirectory("zip-stream")
        let deflate: (([UInt8]) -> [UInt8])? = deflated ? { ZipTestDeflater.compress($0) } : nil
        let builder = ExportQuirksFixture.archive(deflate: deflate)
        try ZipStreamTestData.expectStreamReadEqualsArchiveRead(builder.build(), in: directory)
        let entries = try ZipStreamTestData.read(builder.build())
        #expect(entries.filter { $0.entry.isMacMetadata }.count == 2)
    }

    /// What the package's own `ZipWriter` writes (padding extra fields, ZIP64 when forced).
    @Test(arguments: [false, true]) func zipWriterArchivesReadTheSame(forceZip64: Bool) throws {
        let directory = TemporaryDirectory("zip-stream")
        let path = directory.child("written.zip")
        let writer = try ZipWriter(path: path, modified: .dosEpoch, forceZip64: forceZip64)
        for (index, size) in [0, 1, 5_000, 200_000].enumerated() {
            try writer.beginEntry("entry-\(index).xml")
            try writer.write(ZipTestData.text(bytes: size))
            try writer.endEntry()
        }
        try writer.finish()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        try ZipStreamTestData.expectStreamReadEqualsArchiveRead(bytes, in: directory)
        let entries = try ZipStreamTestData.read(bytes)
        #expect(entries.map(\.entry.uncompressedSize) == [0, 1, 5_000, 200_000])
    }

    // MARK: - Data descriptors and ZIP64

    /// Entries whose CRC and sizes follow their data, with and without the descriptor's
    /// signature, in 32 and 64 bits, stored (with a size) or deflated, in every piece size.
    @Test(arguments: ZipStreamTestData.pieceSizes) func dataDescriptorsOfEveryLayoutRead(piece: Int) throws {
        let content = ZipTestData.text(bytes: 70_000)
        var builder = ZipFixtureBuilder()
        for signed in [true, false] {
            for zip64 in [false, true] {
                let name = "\(signed ? "signed" : "unsigned")-\(zip64 ? "zip64" : "32").xml"
                let index = builder.addCompressed(
                    name, compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
                    uncompressedSize: UInt64(content.count))
                builder.entries[index].dataDescriptor = true
                builder.entries[index].dataDescriptorSignature = signed
                builder.entries[index].zip64 = zip64
            }
        }
        // Empty, deflated to two bytes: its descriptor says 0 bytes of content.
        let empty = builder.addCompressed(
            "empty.txt", compressed: ZipTestDeflater.compress([]), crc32: 0, uncompressedSize: 0)
        builder.entries[empty].dataDescriptor = true
        builder.entries[empty].dataDescriptorSignature = false
        builder.zip64EndRecord = true
        let bytes = builder.build()

        let entries = try ZipStreamTestData.read(bytes, piece: piece)
        #expect(entries.count == 5)
        for streamed in entries.prefix(4) {
            #expect(streamed.content == content, "\(streamed.entry.name)")
            #expect(streamed.entry.hasDataDescriptor)
            #expect(streamed.entry.compressedSize == nil && streamed.entry.uncompressedSize == nil)
            #expect(streamed.entry.crc32 == nil)
        }
        #expect(entries.last?.content == [])
        if piece == Int.max {
            try ZipStreamTestData.expectStreamReadEqualsArchiveRead(bytes, in: TemporaryDirectory("zip-stream"))
        }
    }

    /// Some writers set bit 3 yet fill in the local header's sizes too: they are used, and the
    /// descriptor must agree with them.
    @Test func descriptorWithSizesInTheLocalHeaderToo() throws {
        let content = ZipTestData.text(bytes: 9_000)
        let compressed = ZipTestDeflater.compress(content)
        var builder = ZipFixtureBuilder()
        let index = builder.addStored("stored.txt", content)
        builder.entries[index].dataDescriptor = true
        let deflated = builder.addCompressed(
            "deflated.xml", compressed: compressed, crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.entries[deflated].dataDescriptor = true
        var bytes = builder.build()
        // Fill in the sizes each local header left zero (at +18 and +22).
        let second = 30 + "stored.txt".utf8.count + content.count + 16
        for (header, stored) in [(0, content.count), (second, compressed.count)] {
            Self.put(UInt32(stored), at: header + 18, in: &bytes)
            Self.put(UInt32(content.count), at: header + 22, in: &bytes)
        }

        let entries = try ZipStreamTestData.read(bytes, piece: 7)
        #expect(entries.map(\.content) == [content, content])
        #expect(entries.map(\.entry.compressedSize) == [UInt64(content.count), UInt64(compressed.count)])
    }

    @Test(arguments: ZipStreamTestData.pieceSizes) func zip64SizesInLocalHeadersRead(piece: Int) throws {
        let content = ZipTestData.text(bytes: 70_000)
        var builder = ZipFixtureBuilder()
        let deflated = builder.addCompressed(
            "deflated.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        let stored = builder.addStored("stored.txt", content)
        for index in [deflated, stored] { builder.entries[index].zip64 = true }
        builder.zip64EndRecord = true

        let entries = try ZipStreamTestData.read(builder.build(), piece: piece)
        #expect(entries.map(\.content) == [content, content])
        #expect(entries.map(\.entry.uncompressedSize) == [70_000, 70_000])
        #expect(entries[1].entry.compressedSize == 70_000)
    }

    /// An archive with no entries is its end record alone.
    @Test func emptyArchiveHasNoEntries() throws {
        #expect(try ZipStreamTestData.read(ZipFixtureBuilder().build(), piece: 1).isEmpty)
        var zip64 = ZipFixtureBuilder()
        zip64.zip64EndRecord = true
        #expect(try ZipStreamTestData.read(zip64.build()).isEmpty)
    }

    // MARK: - Archives inside archives

    /// Garmin Connect's layout: a zip of zips of FIT files, with a Strava-style `.fit.gz` beside
    /// them, the inner zip itself inside another; read by nesting readers, nothing extracted.
    @Test(arguments: ZipStreamTestData.pieceSizes) func zipInsideZipInsideZipReads(piece: Int) throws {
        let fit = (0..<3).map { ZipTestData.text(bytes: 10_000 + $0) }
        var innermost = ZipFixtureBuilder()
        for (index, content) in fit.enumerated() {
            let entry = innermost.addCompressed(
                "activity-\(index).fit", compressed: ZipTestDeflater.compress(content),
                crc32: ZipTestDeflater.crc32(content), uncompressedSize: UInt64(content.count))
            innermost.entries[entry].dataDescriptor = index == 1
        }
        let middle = ZipStreamTestData.wrap(innermost.build(), as: "UploadedFiles_0-_Part1.zip", shape: 2)
        var outer = ZipFixtureBuilder()
        outer.addDirectory("DI_CONNECT/")
        outer.addStored("DI_CONNECT/DI-Connect-Uploaded-Files/Part1.zip", middle)
        let gzipped = GzipStreamTests.gzip(fit[0])
        outer.addCompressed(
            "activities/123.fit.gz", compressed: ZipTestDeflater.compress(gzipped),
            crc32: ZipTestDeflater.crc32(gzipped), uncompressedSize: UInt64(gzipped.count))

        let leaves = NestedZipReader.Leaves()
        let reader = NestedZipReader(path: "export.zip", leaves: leaves)
        try ZipStreamTestData.feed(outer.build(), piece: piece) { try reader.feed($0) }
        try reader.finish()

        let prefix = "export.zip/DI_CONNECT/DI-Connect-Uploaded-Files/Part1.zip/UploadedFiles_0-_Part1.zip/"
        #expect(
            leaves.found.map(\.path) == [
                "export.zip/DI_CONNECT/", prefix + "activity-0.fit", prefix + "activity-1.fit",
                prefix + "activity-2.fit", "export.zip/activities/123.fit.gz",
            ])
        #expect(leaves.found.map(\.content) == [[]] + fit + [fit[0]])
    }

    /// A reader per level, each with its own budgets: the inner archive's limits hold even
    /// though the outer one's entry is small.
    @Test func innerReadersKeepTheirOwnLimits() throws {
        var inner = ZipFixtureBuilder()
        for index in 0..<5 { inner.addStored("\(index).fit", "x") }
        let outer = ZipStreamTestData.wrap(inner.build(), as: "inner.zip", shape: 1)
        let child = ZipStreamReader(name: "outer.zip/inner.zip", limits: ZipLimits(maxEntries: 3))
        let parent = ZipStreamReader(name: "outer.zip")
        let error = ZipTestData.zipError {
            try outer.withUnsafeBytes { bytes in
                try parent.feed(bytes) { event in
                    if case .data(let chunk) = event { try child.feed(chunk) { _ in } }
                }
            }
        }
        #expect(error?.kind == .tooManyEntries)
        #expect(error?.message.contains("'outer.zip/inner.zip'") == true)
        #expect(error?.entry == "3.fit")
    }

    // MARK: - python3's zipfile, writing to a pipe

    /// Python's `zipfile` writing to a pipe, which it cannot seek: every file entry gets a data
    /// descriptor (ZIP64 ones too), directories none. The stream read equals the in-place read.
    @Test(
        .enabled(
            if: ZipPythonFixture.isAvailable,
            "python3 is not installed, so the Python-made fixtures cannot be generated"))
    func pythonStreamedArchivesRead() throws {
        let script = """
            import sys, zipfile
            data = bytes((i * 7 + i // 251) % 256 for i in range(200000))
            text = b'<Record value="1"/>\\n' * 4000
            with zipfile.ZipFile(sys.stdout.buffer, "w", zipfile.ZIP_DEFLATED) as zf:
                zf.mkdir("activities")
                zf.writestr("activities/text.xml", text)
                zf.writestr("activities/binary.fit", data)
                zf.writestr("activities/empty.fit", b"")
                zf.writestr("activities/été.fit", b"accents")
                with zf.open("activities/forced64.fit", "w", force_zip64=True) as f:
                    f.write(data[:5000])
                zf.writestr("activities/fast.fit", data, compresslevel=1)
            """
        let bytes = try ZipStreamTestData.pythonArchive(script)
        let directory = TemporaryDirectory("zip-stream")
        try ZipStreamTestData.expectStreamReadEqualsArchiveRead(bytes, in: directory)

        let entries = try ZipStreamTestData.read(bytes)
        #expect(
            entries.map(\.entry.name) == [
                "activities/", "activities/text.xml", "activities/binary.fit", "activities/empty.fit",
                "activities/été.fit", "activities/forced64.fit", "activities/fast.fit",
            ])
        #expect(entries.map(\.entry.hasDataDescriptor) == [false] + Array(repeating: true, count: 6))
        #expect(entries[2].content.count == 200_000)
        #expect(entries[5].content == Array(entries[2].content.prefix(5_000)))
    }

    /// Garmin's export as python builds it: the outer zip streamed to a pipe, holding zips of
    /// FIT-like files and a gzip beside them.
    @Test(
        .enabled(
            if: ZipPythonFixture.isAvailable,
            "python3 is not installed, so the Python-made fixtures cannot be generated"))
    func pythonNestedArchivesRead() throws {
        let script = """
            import gzip, io, sys, zipfile
            files = {f"{i}.fit": bytes((i + j * 13) % 256 for j in range(30000 + i)) for i in range(3)}
            inner = io.BytesIO()
            with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as zf:
                for name, data in files.items():
                    zf.writestr(name, data)
            with zipfile.ZipFile(sys.stdout.buffer, "w", zipfile.ZIP_DEFLATED) as zf:
                zf.writestr("DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip", inner.getvalue())
                zf.writestr("activities/7.fit.gz", gzip.compress(files["2.fit"], mtime=0))
            """
        let bytes = try ZipStreamTestData.pythonArchive(script)
        let leaves = NestedZipReader.Leaves()
        let reader = NestedZipReader(path: "garmin.zip", leaves: leaves)
        try ZipStreamTestData.feed(bytes, piece: 4_096) { try reader.feed($0) }
        try reader.finish()

        let expected = (0..<3).map { index in (0..<(30_000 + index)).map { UInt8((index + $0 * 13) % 256) } }
        let inner = "garmin.zip/DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip/"
        #expect(
            leaves.found.map(\.path) == [
                inner + "0.fit", inner + "1.fit", inner + "2.fit", "garmin.zip/activities/7.fit.gz",
            ])
        #expect(leaves.found.map(\.content) == expected + [expected[2]])
    }

    /// A stored file written to a pipe has its size only in the descriptor after it: `ZipArchive`
    /// reads it through the central directory, and the stream reader says why it cannot, after
    /// reading the entries before it.
    @Test(
        .enabled(
            if: ZipPythonFixture.isAvailable,
            "python3 is not installed, so the Python-made fixtures cannot be generated"))
    func pythonStoredEntryWithADescriptorIsNotStreamable() throws {
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.stdout.buffer, "w", zipfile.ZIP_DEFLATED) as zf:
                zf.writestr("first.fit", b"deflated first")
                zf.writestr("stored.fit", b"stored after", compress_type=zipfile.ZIP_STORED)
            """
        let bytes = try ZipStreamTestData.pythonArchive(script)
        let directory = TemporaryDirectory("zip-stream")
        let inPlace = try ZipStreamTestData.readInPlace(try ZipTestData.write(bytes, in: directory))
        #expect(inPlace.map(\.content) == [Array("deflated first".utf8), Array("stored after".utf8)])

        let reader = ZipStreamReader(name: "python.zip")
        var collector = ZipStreamCollector()
        let error = ZipTestData.zipError {
            try bytes.withUnsafeBytes { try reader.feed($0) { collector.take($0) } }
        }
        #expect(collector.entries.map(\.content) == [Array("deflated first".utf8)])
        #expect(error?.kind == .notStreamable)
        #expect(error?.entry == "stored.fit")
        #expect(error?.message.contains("stored uncompressed") == true)
        #expect(error?.message.contains("'python.zip', entry 'stored.fit'") == true)
        // The reader stays failed.
        #expect(ZipTestData.zipError { try reader.finish() }?.kind == .notStreamable)
    }

    // MARK: - Helpers

    static func put(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}
