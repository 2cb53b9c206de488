import AppleHealth
import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

/// The ZIP reader on `ExportQuirksFixture` deflated, as the Health app writes it: a localized
/// main file, `__MACOSX/` entries and side files in folders. The same checks run on the real
/// exports in `RealExportTests.Zip`.
@Suite struct ExportQuirksZipTests {
    let directory = TemporaryDirectory("zip-quirks")

    /// The fixture as a deflated export.zip in this test's directory.
    func writeArchive() throws -> String {
        let path = directory.child("export.zip")
        try ExportQuirksFixture.writeZip(to: path, deflate: ZipTestDeflater.compress)
        return path
    }

    static let mainEntry = ExportQuirksFixture.folderName + "/" + ExportQuirksFixture.mainFileName

    @Test func listingHasTheLocalizedMainFileAndMarksMacMetadata() throws {
        let archive = try ZipArchive(path: try writeArchive())
        #expect(
            archive.entries.map(\.name) == [
                "apple_health_export/", "__MACOSX/._apple_health_export", "apple_health_export/导出.xml",
                "__MACOSX/apple_health_export/._导出.xml", "apple_health_export/export_cda.xml",
                "apple_health_export/workout-routes/",
                "apple_health_export/workout-routes/route_2024-03-02_8.41am.gpx",
                "apple_health_export/electrocardiograms/",
                "apple_health_export/electrocardiograms/ecg_2024-03-02.csv",
            ])
        for entry in archive.entries {
            #expect(entry.isDirectory == entry.name.hasSuffix("/"), "\(entry.name)")
            #expect(entry.method == (entry.isDirectory ? 0 : 8), "\(entry.name)")
            #expect(entry.isMacMetadata == entry.name.hasPrefix("__MACOSX/"), "\(entry.name)")
            #expect(!entry.isSymbolicLink && !entry.isEncrypted && !entry.hasUnsafePath, "\(entry.name)")
        }
    }

    @Test func mainFileReadsBackByteForByteInAnyChunkSize() throws {
        let archive = try ZipArchive(path: try writeArchive())
        let entry = try #require(archive.entries.first { $0.name == Self.mainEntry })
        let expected = Array(ExportQuirksFixture.exportXML.utf8)
        #expect(entry.uncompressedSize == UInt64(expected.count))
        #expect(entry.compressedSize < entry.uncompressedSize)
        for chunkSize in [1, 1000, 1 << 20] {
            #expect(
                try archive.contents(of: entry, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
        }
    }

    @Test func everyEntryReadsWithItsDeclaredSizeAndCRC() throws {
        try ZipArchiveChecks.expectEveryEntryReadsWithItsDeclaredSizeAndCRC(try writeArchive())
    }

    @Test func aFlippedByteInTheMainFileIsCaught() throws {
        let path = try writeArchive()
        let entry = try #require(try ZipArchive(path: path).entries.first { $0.name == Self.mainEntry })
        // Half-way into its compressed data, after the 30-byte local header and the name.
        let dataStart = Int(entry.localHeaderOffset) + 30 + Self.mainEntry.utf8.count
        try ZipArchiveChecks.expectFlippedByteIsCaught(
            path, at: dataStart + Int(entry.compressedSize) / 2, in: Self.mainEntry)
    }

    @Test func cutAtAnyOffsetGivesAZipErrorNeverACrash() throws {
        try ZipArchiveChecks.expectCutAtAnyOffsetGivesAZipError(try writeArchive())
    }

    @Test func randomlyDamagedCopiesFailOnlyWithZipErrors() throws {
        try ZipArchiveChecks.expectRandomDamageGivesOnlyZipErrors(try writeArchive())
    }
}
