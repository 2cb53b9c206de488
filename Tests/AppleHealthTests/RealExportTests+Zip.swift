import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

extension RealExportTests {
    /// The reader against real Health app exports; the expected listings were taken from
    /// Python's `zipfile` (`infolist()`: filename, compress_size, file_size, CRC, header_offset).
    @Suite struct Zip {
        struct Expected: Sendable, CustomTestStringConvertible {
            var name: String
            var compressedSize: UInt64
            var uncompressedSize: UInt64
            var crc32: UInt32
            var localHeaderOffset: UInt64
            var testDescription: String { name }
        }

        static let ios16 = RealExports.path("ios16-broken-dtd/export.zip")
        static let inlineRoute = RealExports.path("inline-route/export.zip")

        static let ios16Listing: [Expected] = [
            Expected(
                name: "apple_health_export/", compressedSize: 0, uncompressedSize: 0, crc32: 0,
                localHeaderOffset: 0),
            Expected(
                name: "__MACOSX/._apple_health_export", compressedSize: 137, uncompressedSize: 214,
                crc32: 0xb97c_5fcd, localHeaderOffset: 82),
            Expected(
                name: "apple_health_export/export.xml", compressedSize: 2236, uncompressedSize: 12408,
                crc32: 0x73cb_bec0, localHeaderOffset: 327),
            Expected(
                name: "__MACOSX/apple_health_export/._export.xml", compressedSize: 137, uncompressedSize: 214,
                crc32: 0xb97c_5fcd, localHeaderOffset: 2671),
            Expected(
                name: "apple_health_export/workout-routes/", compressedSize: 0, uncompressedSize: 0, crc32: 0,
                localHeaderOffset: 2927),
            Expected(
                name: "__MACOSX/apple_health_export/._workout-routes", compressedSize: 137,
                uncompressedSize: 214,
                crc32: 0xb97c_5fcd, localHeaderOffset: 3024),
            Expected(
                name: "apple_health_export/workout-routes/route_2020-02-24_10.18am.gpx",
                compressedSize: 19282,
                uncompressedSize: 145_953, crc32: 0x82fc_8107, localHeaderOffset: 3284),
            Expected(
                name: "__MACOSX/apple_health_export/workout-routes/._route_2020-02-24_10.18am.gpx",
                compressedSize: 137, uncompressedSize: 214, crc32: 0xb97c_5fcd, localHeaderOffset: 22707),
        ]

        static let inlineRouteListing: [Expected] = [
            Expected(
                name: "apple_health_export/", compressedSize: 0, uncompressedSize: 0, crc32: 0,
                localHeaderOffset: 0),
            Expected(
                name: "apple_health_export/workout-routes/", compressedSize: 0, uncompressedSize: 0, crc32: 0,
                localHeaderOffset: 78),
            Expected(
                name: "apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx", compressedSize: 445,
                uncompressedSize: 1113, crc32: 0xf3f9_57dd, localHeaderOffset: 171),
            Expected(
                name: "apple_health_export/export.xml", compressedSize: 1059, uncompressedSize: 2881,
                crc32: 0xa2a2_a6aa, localHeaderOffset: 736),
        ]

        @Test(arguments: [(ios16, ios16Listing), (inlineRoute, inlineRouteListing)])
        func listingMatchesPythonZipfile(path: String, expected: [Expected]) throws {
            let archive = try ZipArchive(path: path)
            #expect(archive.entries.map(\.name) == expected.map(\.name))
            for (entry, want) in zip(archive.entries, expected) {
                #expect(entry.compressedSize == want.compressedSize, "\(want.name)")
                #expect(entry.uncompressedSize == want.uncompressedSize, "\(want.name)")
                #expect(entry.crc32 == want.crc32, "\(want.name)")
                #expect(entry.localHeaderOffset == want.localHeaderOffset, "\(want.name)")
                #expect(entry.method == (want.name.hasSuffix("/") ? 0 : 8), "\(want.name)")
                #expect(entry.isDirectory == want.name.hasSuffix("/"), "\(want.name)")
                #expect(entry.isMacMetadata == want.name.hasPrefix("__MACOSX/"), "\(want.name)")
                #expect(!entry.isSymbolicLink && !entry.isEncrypted && !entry.hasUnsafePath, "\(want.name)")
            }
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(archive.fileSize == UInt64(try #require(size)))
        }

        /// The older inline-route export has no XML declaration: it starts at the root element
        /// (Python's `zipfile` shows the same bytes).
        @Test(arguments: [
            (ios16, 12408, "<?xml version=\"1.0\""), (inlineRoute, 2881, "<HealthData locale="),
        ])
        func exportXMLReadsFullyWithItsCRCVerified(path: String, size: Int, start: String) throws {
            let archive = try ZipArchive(path: path)
            let entry = try #require(archive.entries.first { $0.name == "apple_health_export/export.xml" })
            let content = try archive.contents(of: entry, chunkSize: 1000)
            #expect(content.count == size)
            #expect(content.starts(with: Array(start.utf8)))
            #expect(String(decoding: content, as: UTF8.self).contains("</HealthData>"))
            #expect(ZipTestDeflater.crc32(content) == entry.crc32)
            #expect(try archive.prefix(of: entry, count: start.utf8.count) == Array(start.utf8))
        }

        /// Read front to back, as an archive inside another would be: the same entries and bytes.
        /// The iOS 16 export, zipped on a Mac, has a data descriptor after every file.
        @Test(arguments: [ios16, inlineRoute])
        func streamReadEqualsArchiveRead(path: String) throws {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            try ZipStreamTestData.expectStreamReadEqualsArchiveRead(bytes, in: TemporaryDirectory("zip-stream"))
            let described = try ZipStreamTestData.read(bytes).filter(\.entry.hasDataDescriptor)
            #expect(described.count == (path == Self.ios16 ? 6 : 0))
        }

        @Test(arguments: [ios16, inlineRoute])
        func everyEntryReadsWithItsDeclaredSizeAndCRC(path: String) throws {
            try ZipArchiveChecks.expectEveryEntryReadsWithItsDeclaredSizeAndCRC(path)
        }

        @Test func aFlippedByteInExportXMLIsCaught() throws {
            // Inside export.xml's compressed data: its local header is at 327, the data ~80 bytes on.
            try ZipArchiveChecks.expectFlippedByteIsCaught(
                Self.ios16, at: 327 + 30 + 30 + 1500, in: "apple_health_export/export.xml")
        }

        @Test(arguments: [ios16, inlineRoute])
        func cutAtAnyOffsetGivesAZipErrorNeverACrash(path: String) throws {
            try ZipArchiveChecks.expectCutAtAnyOffsetGivesAZipError(path)
        }

        @Test(arguments: [ios16, inlineRoute])
        func randomlyDamagedCopiesFailOnlyWithZipErrors(path: String) throws {
            try ZipArchiveChecks.expectRandomDamageGivesOnlyZipErrors(path)
        }
    }
}
