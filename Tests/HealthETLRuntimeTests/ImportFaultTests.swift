import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLStore
import HealthETLTestSupport
import Testing

/// Imports into a store that meet a broken part of an export: the broken part is refused or
/// rolled back, and the store ends as a clean read would leave it.
@Suite struct ImportFaultTests {
    let directory = TemporaryDirectory("healthetl-import-faults")
    let clock = Clock.fixed(Instant(millisecondsSinceEpoch: 1_718_000_000_000))  // 2024-06-10

    func openStore() throws -> Store {
        try Store(directory: StoreDirectory(path: directory.child("store")), clock: clock)
    }

    func importer(batchSize: Int = IngestEngine.defaultBatchSize) -> ArchiveImport {
        var importer = ArchiveImport()
        importer.clock = clock
        importer.batchSize = batchSize
        return importer
    }

    /// A large entry's CRC is known only once all of it was read, and partly committed.
    @Test func aMainFileFailingItsCRCAtTheEndKeepsNothingItRead() throws {
        let store = try openStore()
        var earlier = ExportXMLBuilder(exportDate: "2024-04-01 09:00:00 +0200")
        earlier.addHeartRates(0..<10)
        try earlier.write(to: directory.child("earlier.xml"))
        _ = try importer().run(directory.child("earlier.xml"), into: store, catalog: try MetricCatalog.bundled())

        var export = ExportXMLBuilder(exportDate: "2024-05-01 09:00:00 +0200")
        export.addHeartRates(0..<2_000)
        var archive = ZipFixtureBuilder()
        let main = archive.addStored("apple_health_export/export.xml", export.xml)
        #expect(archive.entries[main].data.count > 256 << 10)
        try archive.write(to: directory.child("clean.zip"))
        archive.entries[main].crc32 ^= 1
        try archive.write(to: directory.child("damaged.zip"))

        let damaged = try importer(batchSize: 100).run(
            directory.child("damaged.zip"), into: store, catalog: try MetricCatalog.bundled())
        #expect(!damaged.complete)
        #expect(damaged.problem?.contains("Nothing read from it was kept") == true, "\(damaged.problem ?? "")")
        #expect(try store.status().samples.total == 10, "records committed before the CRC failed were kept")

        // A clean copy of the same export reads it all, as if the damaged one had never been read.
        let clean = try importer(batchSize: 100).run(
            directory.child("clean.zip"), into: store, catalog: try MetricCatalog.bundled())
        #expect(clean.complete)
        #expect(clean.accepted == 1_990)
        #expect(try store.status().samples.total == 2_000)
    }

    /// One route point that is not a number used to fail its whole batch in SQLite.
    @Test func aRoutePointThatIsNotANumberDoesNotStopTheImport() throws {
        try FileManager.default.createDirectory(atPath: directory.child("export"), withIntermediateDirectories: true)
        let root = try ExportQuirksFixture.writeFolder(in: directory.child("export"))
        let gpx = ExportQuirksFixture.routeGPX.replacingOccurrences(
            of: "lat=\"\(ExportQuirksFixture.routeLatitude(3))\"", with: "lat=\"nan\"")
        try gpx.write(toFile: root + ExportQuirksFixture.routeReference, atomically: true, encoding: .utf8)

        let store = try openStore()
        let summary = try importer().run(root, into: store, catalog: try MetricCatalog.bundled())
        #expect(summary.complete)
        #expect(summary.workouts == 1)
        #expect(summary.warnings["invalid_route_point"] == 1)
        #expect(try store.status().samples.total > 0)
    }
}
