import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

/// Every ZipError tells the user which archive and entry, where, and what to do next.
@Suite struct ZipErrorTests {
    @Test func entryErrorsNameTheEntryTheOffsetAndTheNextStep() throws {
        let directory = TemporaryDirectory("zip-error")
        let content = ZipTestData.text(bytes: 20_000)
        var builder = ZipFixtureBuilder()
        let crc = builder.addStored("apple_health_export/export.xml", content)
        builder.entries[crc].crc32 ^= 1
        let long = builder.addCompressed(
            "apple_health_export/long.xml", compressed: ZipTestDeflater.compress(content), crc32: 0,
            uncompressedSize: 10)
        builder.entries[long].uncompressedSize = 10
        builder.addCompressed(
            "apple_health_export/broken.xml", compressed: [0xFF, 0xFF], crc32: 0, uncompressedSize: 10)
        let zeros = ZipTestDeflater.zeros(count: 64 << 20)
        builder.addCompressed(
            "apple_health_export/bomb.bin", compressed: zeros.compressed, crc32: zeros.crc32,
            uncompressedSize: 64 << 20)
        let archive = try ZipTestData.open(builder, in: directory, name: "export.zip")

        let expectedKinds: [ZipError.Kind] = [.crcMismatch, .sizeMismatch, .corruptData, .compressionBomb]
        for (entry, kind) in zip(archive.entries, expectedKinds) {
            let error = try #require(ZipTestData.zipError { _ = try archive.contents(of: entry) })
            #expect(error.kind == kind, "\(entry.name)")
            #expect(error.entry == entry.name)
            #expect(error.message.contains("'\(entry.name)'"), "\(error.message)")
            #expect(error.message.contains(directory.child("export.zip")), "\(error.message)")
            #expect(error.message.contains("byte"), "\(error.message)")
            #expect(error.message.contains("Re-export from the Health app"), "\(error.message)")
            #expect(error.description == error.message)
        }
    }

    @Test func archiveErrorsSayWhatToPassInstead() throws {
        let directory = TemporaryDirectory("zip-error")
        let path = try ZipTestData.write(Array("<HealthData/>".utf8), in: directory, name: "export.xml")
        let error = try #require(ZipTestData.zipError { _ = try ZipArchive(path: path) })
        #expect(error.kind == .notAZip)
        #expect(error.entry == nil)
        #expect(error.message.contains(path))
        #expect(error.message.contains("export.zip the Health app wrote"))
    }

    @Test func refusedEntriesSayHowToGetAReadableExport() throws {
        let directory = TemporaryDirectory("zip-error")
        var builder = ZipFixtureBuilder()
        let secret = builder.addStored("export.xml", "x")
        builder.entries[secret].flags |= 1
        builder.addCompressed(
            "export_cda.xml", compressed: [1, 2, 3], crc32: 0, uncompressedSize: 3, method: 14)
        let archive = try ZipTestData.open(builder, in: directory)

        let encrypted = try #require(
            ZipTestData.zipError { _ = try archive.contents(of: archive.entries[0]) })
        #expect(encrypted.message.contains("'export.xml'") && encrypted.message.contains("password"))
        let method = try #require(ZipTestData.zipError { _ = try archive.contents(of: archive.entries[1]) })
        #expect(method.message.contains("'export_cda.xml'") && method.message.contains("method 14"))
        #expect(method.message.contains("re-export from the Health app"))
    }
}
