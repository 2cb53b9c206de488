import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

/// Reliability cases Z1 and Z2 (docs/reliability.md, "Hostile archives"): unsafe names and
/// symlinks, the 1 GiB zip bomb, the overlapping-entry bomb and nested archives.
///
/// Serialized so the memory measurement is not disturbed by the suite's own large reads.
@Suite(.serialized) struct ZipHostileTests {
    /// 1 GiB of zeros, deflated (about 1 MB), built once by streaming through zlib.
    static let gigabyteOfZeros = ZipTestDeflater.zeros(count: 1 << 30)

    // MARK: - Z1: names that would escape, and symbolic links

    @Test func unsafeNamesAndSymlinksAreFlaggedAndNothingIsWritten() throws {
        let directory = TemporaryDirectory("zip-hostile")
        let unsafe = [
            "../../evil", "/abs/evil", "..\\evil", "C:\\evil", "c:/evil", "data/../../evil",
            "\\\\server\\evil",
        ]
        let safe = [
            "apple_health_export/export.xml", "a..b/c", "..hidden", "dir/...", "C/evil", "evil:stream",
        ]
        var builder = ZipFixtureBuilder()
        for name in unsafe + safe { builder.addStored(name, "written by \(name)") }
        builder.addSymlink("apple_health_export/link", target: "/etc/passwd")
        let archive = try ZipTestData.open(builder, in: directory, name: "hostile.zip")

        for entry in archive.entries {
            #expect(entry.hasUnsafePath == unsafe.contains(entry.name), "\(entry.name)")
            #expect(entry.isSymbolicLink == (entry.name == "apple_health_export/link"), "\(entry.name)")
            #expect(!entry.isDirectory, "\(entry.name)")
            let content = String(decoding: try archive.contents(of: entry), as: UTF8.self)
            #expect(content == (entry.isSymbolicLink ? "/etc/passwd" : "written by \(entry.name)"))
        }

        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["hostile.zip"])
        for escaped in [
            "/abs/evil", directory.path + "/../../evil", directory.path + "/../evil", "evil", "../evil",
        ] {
            #expect(!FileManager.default.fileExists(atPath: escaped), "\(escaped)")
        }
    }

    @Test func macMetadataIsRecognised() throws {
        let directory = TemporaryDirectory("zip-hostile")
        var builder = ZipFixtureBuilder()
        let metadata = [
            "__MACOSX/", "__MACOSX/apple_health_export/._export.xml", "apple_health_export/._route.gpx",
            "._x",
        ]
        let data = ["apple_health_export/export.xml", "a/__MACOSX/x", "notes/_x", "x._"]
        for name in metadata + data { builder.addStored(name, "x") }
        let archive = try ZipTestData.open(builder, in: directory)
        for entry in archive.entries {
            #expect(entry.isMacMetadata == metadata.contains(entry.name), "\(entry.name)")
        }
    }

    // MARK: - Z2: compression bombs

    @Test func gigabyteOfZerosIsRefusedBeforeInflating() throws {
        let directory = TemporaryDirectory("zip-hostile")
        let bomb = Self.gigabyteOfZeros
        #expect(bomb.compressed.count < 2_000_000)
        var builder = ZipFixtureBuilder()
        builder.addCompressed(
            "zeros.bin", compressed: bomb.compressed, crc32: bomb.crc32, uncompressedSize: 1 << 30)
        let archive = try ZipTestData.open(builder, in: directory)

        var delivered = 0
        let error = try #require(
            ZipTestData.zipError { try archive.read(archive.entries[0]) { delivered += $0.count } })
        #expect(error.kind == .compressionBomb)
        #expect(error.entry == "zeros.bin")
        #expect(delivered == 0)

        let tooBig = try ZipArchive(
            path: directory.child("fixture.zip"),
            limits: ZipLimits(maxEntryBytes: 512 << 20, maxCompressionRatio: 10_000))
        #expect(
            ZipTestData.zipError { try tooBig.read(tooBig.entries[0]) { _ in } }?.kind == .compressionBomb)
    }

    /// The same bomb padded so that its declared sizes look harmless: the ratio is caught while
    /// streaming, within the grace bytes plus one chunk, in bounded memory.
    @Test func disguisedBombIsStoppedMidStreamInBoundedMemory() throws {
        let directory = TemporaryDirectory("zip-hostile")
        let bomb = Self.gigabyteOfZeros
        let limits = ZipLimits()
        let padding = Int((1 << 30) / limits.maxCompressionRatio) + 1
        var builder = ZipFixtureBuilder()
        builder.addCompressed(
            "zeros.bin", compressed: bomb.compressed + [UInt8](repeating: 0, count: padding),
            crc32: bomb.crc32,
            uncompressedSize: 1 << 30)
        let archive = try ZipTestData.open(builder, in: directory)
        let chunkSize = 1 << 20

        let baseline = ProcessMemory.startOwnPeakMeasurement() >> 10
        var delivered: UInt64 = 0
        let error = try #require(
            ZipTestData.zipError {
                try archive.read(archive.entries[0], chunkSize: chunkSize) { delivered += UInt64($0.count) }
            })
        let growth = ProcessMemory.ownPeakResidentBytes().map { ($0 >> 10) - min($0 >> 10, baseline) }

        #expect(error.kind == .compressionBomb)
        #expect(delivered > 0)
        #expect(delivered <= limits.ratioGraceBytes + UInt64(chunkSize))
        let grewKilobytes = try #require(growth, "VmHWM is unreadable")
        #expect(grewKilobytes < 64 * 1024, "peak resident memory grew \(grewKilobytes) kB during the read")
    }

    @Test func bombUnderstatingItsSizeStopsAtTheDeclaredSize() throws {
        let directory = TemporaryDirectory("zip-hostile")
        let bomb = Self.gigabyteOfZeros
        let declared: UInt64 = 24 << 20
        var builder = ZipFixtureBuilder()
        builder.addCompressed(
            "zeros.bin", compressed: bomb.compressed, crc32: bomb.crc32, uncompressedSize: declared)
        let archive = try ZipTestData.open(
            builder, in: directory, limits: ZipLimits(maxCompressionRatio: 1_000_000))

        var delivered: UInt64 = 0
        let error = try #require(
            ZipTestData.zipError { try archive.read(archive.entries[0]) { delivered += UInt64($0.count) } })
        #expect(error.kind == .sizeMismatch)
        #expect(delivered == declared)
    }

    @Test func twoRecordsSharingOneLocalHeaderAreRefusedAtOpen() throws {
        let directory = TemporaryDirectory("zip-hostile")
        let content = ZipTestData.text(bytes: 10_000)
        var builder = ZipFixtureBuilder()
        builder.addStored("first.xml", "tiny")
        let kernel = builder.addCompressed(
            "kernel.xml", compressed: ZipTestDeflater.compress(content),
            crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.addAlias(of: kernel, named: "copy-1.xml")
        builder.addAlias(of: kernel, named: "copy-2.xml")
        try builder.write(to: directory.child("overlap.zip"))

        let error = try #require(
            ZipTestData.zipError { _ = try ZipArchive(path: directory.child("overlap.zip")) })
        #expect(error.kind == .overlappingEntries)
        #expect(error.message.contains("kernel.xml") || error.message.contains("copy-1.xml"))
    }

    @Test func entryWhoseDataCoversTheNextHeaderIsRefusedAtOpen() throws {
        let directory = TemporaryDirectory("zip-hostile")
        var builder = ZipFixtureBuilder()
        let first = builder.addStored("a.txt", "aaaa")
        builder.addStored("b.txt", "bbbb")
        builder.entries[first].compressedSizeOverride = 40  // reaches into b.txt's local header
        builder.entries[first].uncompressedSize = 40
        let error = try #require(ZipTestData.zipError { _ = try ZipTestData.open(builder, in: directory) })
        #expect(error.kind == .overlappingEntries)
        #expect(error.entry == "b.txt")
    }

    @Test func localHeaderPushingDataIntoItsNeighbourIsRefusedOnRead() throws {
        let directory = TemporaryDirectory("zip-hostile")
        var builder = ZipFixtureBuilder()
        builder.addStored("a.txt", "aaaa")
        builder.addStored("b.txt", "bbbb")
        var bytes = builder.build()
        let archiveBefore = try ZipArchive(path: try ZipTestData.write(bytes, in: directory, name: "ok.zip"))
        // a.txt's local header claims 10 bytes of extra field, pushing its data over b.txt's header;
        // b.txt's claims 40, pushing its data into the central directory.
        bytes[28] = 10
        let second = Int(archiveBefore.entries[1].localHeaderOffset)
        bytes[second + 28] = 40
        let archive = try ZipArchive(path: try ZipTestData.write(bytes, in: directory))

        #expect(
            ZipTestData.zipError { _ = try archive.contents(of: archive.entries[0]) }?.kind
                == .overlappingEntries)
        #expect(
            ZipTestData.zipError { _ = try archive.contents(of: archive.entries[1]) }?.kind
                == .corruptDirectory)
    }

    @Test func nestedZipIsJustAnEntry() throws {
        let directory = TemporaryDirectory("zip-hostile")
        var inner = ZipFixtureBuilder()
        inner.addStored("apple_health_export/export.xml", "<HealthData/>")
        inner.addStored("../../evil", "x")
        let innerBytes = inner.build()
        var outer = ZipFixtureBuilder()
        outer.addStored("apple_health_export/nested.zip", innerBytes)
        let archive = try ZipTestData.open(outer, in: directory)

        #expect(archive.entries.map(\.name) == ["apple_health_export/nested.zip"])
        #expect(try archive.contents(of: archive.entries[0]) == innerBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["fixture.zip"])
    }

    // MARK: - What is refused outright

    @Test func encryptedAndUnknownMethodsAreListedButNotRead() throws {
        let directory = TemporaryDirectory("zip-hostile")
        var builder = ZipFixtureBuilder()
        let secret = builder.addStored("secret.xml", "ciphertext")
        builder.entries[secret].flags |= 1
        builder.addCompressed(
            "bzip2.xml", compressed: [0x42, 0x5A, 0x68], crc32: 0, uncompressedSize: 3, method: 12)
        let archive = try ZipTestData.open(builder, in: directory)

        #expect(archive.entries[0].isEncrypted)
        #expect(archive.entries[1].method == 12)
        let encrypted = ZipTestData.zipError { _ = try archive.contents(of: archive.entries[0]) }
        #expect(encrypted?.kind == .encrypted)
        #expect(encrypted?.entry == "secret.xml")
        #expect(
            ZipTestData.zipError { _ = try archive.prefix(of: archive.entries[1], count: 1) }?.kind
                == .unsupportedMethod)
    }

    @Test func tooManyEntriesAreRefusedAtOpen() throws {
        let directory = TemporaryDirectory("zip-hostile")
        var builder = ZipFixtureBuilder()
        for index in 0..<5 { builder.addStored("file-\(index)", "x") }
        try builder.write(to: directory.child("many.zip"))

        let error = ZipTestData.zipError {
            _ = try ZipArchive(path: directory.child("many.zip"), limits: ZipLimits(maxEntries: 4))
        }
        #expect(error?.kind == .tooManyEntries)
        #expect(
            try ZipArchive(path: directory.child("many.zip"), limits: ZipLimits(maxEntries: 5)).entries.count
                == 5)
    }
}
