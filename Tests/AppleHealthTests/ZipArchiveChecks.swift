import AppleHealth
import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

/// Checks any whole export.zip must pass, run on the real exports and on `ExportQuirksFixture`.
enum ZipArchiveChecks {
    /// Every entry reads back with the size and CRC-32 its central directory declares.
    static func expectEveryEntryReadsWithItsDeclaredSizeAndCRC(_ path: String) throws {
        let archive = try ZipArchive(path: path)
        #expect(!archive.entries.isEmpty)
        for entry in archive.entries {
            let content = try archive.contents(of: entry)
            #expect(UInt64(content.count) == entry.uncompressedSize, "\(entry.name)")
            #expect(ZipTestDeflater.crc32(content) == entry.crc32, "\(entry.name)")
        }
    }

    /// The archive cut at 150 random offsets and at the edges fails to open with a ZipError.
    static func expectCutAtAnyOffsetGivesAZipError(_ path: String) throws {
        let directory = TemporaryDirectory("zip-cut")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var random = SeededGenerator(seed: 0x5EED)
        let cuts =
            (0..<150).map { _ in Int(random.next() % UInt64(bytes.count)) } + [0, 1, 21, 22, bytes.count - 1]
        for cut in cuts {
            let file = try ZipTestData.write(Array(bytes.prefix(cut)), in: directory, name: "cut.zip")
            let error = try #require(ZipTestData.zipError { _ = try ZipArchive(path: file) }, "cut at \(cut)")
            #expect(
                [.notAZip, .truncated, .corruptDirectory].contains(error.kind), "cut at \(cut): \(error)")
        }
    }

    /// 300 copies with up to four random bytes changed fail, if at all, only with ZipErrors.
    static func expectRandomDamageGivesOnlyZipErrors(_ path: String) throws {
        let directory = TemporaryDirectory("zip-damaged")
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var random = SeededGenerator(seed: 0xBAD)
        for round in 0..<300 {
            var bytes = original
            for _ in 0...(random.next() % 4) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            let file = try ZipTestData.write(bytes, in: directory, name: "damaged.zip")
            do {
                let archive = try ZipArchive(path: file)
                for entry in archive.entries {
                    try archive.read(entry, chunkSize: 4096) { _ in }
                }
            } catch is ZipError {
                continue
            } catch {
                Issue.record("round \(round): \(error) is not a ZipError")
            }
        }
    }

    /// A byte flipped at `offset` inside an entry's compressed data is caught when it is read.
    static func expectFlippedByteIsCaught(_ path: String, at offset: Int, in entryName: String) throws {
        let directory = TemporaryDirectory("zip-flipped")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[offset] ^= 0x5A
        let archive = try ZipArchive(path: try ZipTestData.write(bytes, in: directory))
        let entry = try #require(archive.entries.first { $0.name == entryName })
        let error = try #require(ZipTestData.zipError { _ = try archive.contents(of: entry) })
        #expect([.corruptData, .crcMismatch, .sizeMismatch].contains(error.kind))
        #expect(error.entry == entry.name)
    }
}
