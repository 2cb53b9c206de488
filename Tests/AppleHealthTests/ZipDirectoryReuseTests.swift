import AppleHealth
import Foundation
import HealthETLCore
import HealthETLTestSupport
import HealthETLZip
import Testing

/// An import reads an export.zip's central directory once: `recognize` hands what it found to the
/// `read` that follows, which uses it only while the file is still the one it came from.
@Suite struct ZipDirectoryReuseTests {
    @Test func anUnchangedArchiveOpensAgainFromItsDirectory() throws {
        let directory = TemporaryDirectory("zip-reuse")
        var builder = ZipFixtureBuilder()
        builder.addStored("a.txt", "first")
        builder.addStored("b.txt", "second")
        let first = try ZipTestData.open(builder, in: directory)

        let again = try #require(try ZipArchive(path: first.path, directory: first.directory))
        #expect(again.entries == first.entries)
        #expect(try again.contents(of: again.entries[1]) == Array("second".utf8))
    }

    @Test func aReplacedArchiveIsNotOpenedFromTheOldDirectory() throws {
        let directory = TemporaryDirectory("zip-reuse")
        var builder = ZipFixtureBuilder()
        builder.addStored("a.txt", "first")
        let first = try ZipTestData.open(builder, in: directory)
        builder.addStored("b.txt", "second")
        try builder.write(to: first.path)

        #expect(try ZipArchive(path: first.path, directory: first.directory) == nil)
        #expect(try ZipArchive(path: first.path).entries.count == 2)
    }

    @Test func readAfterRecognizeReadsTheRecognisedArchive() throws {
        let directory = TemporaryDirectory("zip-reuse")
        let path = directory.child("export.zip")
        try Self.export(heartRates: 3).write(to: path)
        let adapter = AppleHealthAdapter()

        #expect(adapter.recognize(SourceInput(path: path)) == .recognized)
        #expect(try Self.records(readBy: adapter, from: path) == 3)
        // Taken by the first read: the next one locates the export afresh.
        #expect(try Self.records(readBy: adapter, from: path) == 3)
    }

    @Test func readAfterRecognizeSeesAnArchiveReplacedInBetween() throws {
        let directory = TemporaryDirectory("zip-reuse")
        let path = directory.child("export.zip")
        try Self.export(heartRates: 3).write(to: path)
        let adapter = AppleHealthAdapter()

        #expect(adapter.recognize(SourceInput(path: path)) == .recognized)
        try Self.export(heartRates: 5).write(to: path)
        #expect(try Self.records(readBy: adapter, from: path) == 5)
    }

    /// An export.zip holding `apple_health_export/export.xml` with `heartRates` records.
    static func export(heartRates: Int) -> ZipFixtureBuilder {
        var xml = ExportXMLBuilder()
        xml.addHeartRates(0..<heartRates)
        var builder = ZipFixtureBuilder()
        builder.addStored("apple_health_export/export.xml", xml.xml)
        return builder
    }

    static func records(readBy adapter: AppleHealthAdapter, from path: String) throws -> Int {
        var counter = RecordCounter()
        _ = try adapter.read(SourceInput(path: path), into: &counter)
        return counter.records
    }

    struct RecordCounter: SourceEventHandler {
        var records = 0

        mutating func receive(_ event: SourceEvent) throws {
            if case .record = event { records += 1 }
        }
    }
}
