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

    func importer(batchSize: Int = IngestEngine.defaultBatchSize) -> ExportImport {
        var importer = ExportImport()
        importer.clock = clock
        importer.batchSize = batchSize
        return importer
    }

    /// A large entry's CRC is known only once all of it was read, and partly committed.

    /// One route point that is not a number used to fail its whole batch in SQLite (M3).
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
