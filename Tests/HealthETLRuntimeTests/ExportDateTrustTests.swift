import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLStore
import HealthETLTestSupport
import Testing

/// An export dated beyond the machine's clock is read, but it is no snapshot: it supersedes
/// nothing, and a later real export still supersedes what came before it (H3).
@Suite struct ExportDateTrustTests {
    let directory = TemporaryDirectory("healthetl-export-date")
    let clock = Clock.fixed(Instant(millisecondsSinceEpoch: 1_718_000_000_000))  // 2024-06-10

    private func importXML(_ builder: ExportXMLBuilder, named name: String, into store: Store) throws -> ImportSummary {
        let path = directory.child(name)
        try builder.write(to: path)
        var importer = ArchiveImport()
        importer.clock = clock
        importer.fromStart = true
        return try importer.run(path, into: store, catalog: try MetricCatalog.bundled())
    }

    @Test func aFarFutureExportDeletesNothingAndARealExportAfterItStillSupersedes() throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")), clock: clock)
        var real = ExportXMLBuilder(exportDate: "2024-04-01 09:00:00 +0200")
        real.addHeartRates(0..<100)
        #expect(try importXML(real, named: "real.xml", into: store).accepted == 100)

        var hostile = ExportXMLBuilder(exportDate: "9999-12-31 23:59:59 +0000")
        hostile.addHeartRates(0..<5)
        hostile.add(ExportXMLBuilder.heartRate(3_300_000))  // ends in 2030: after the clock
        let refused = try importXML(hostile, named: "future.xml", into: store)
        #expect(refused.complete)
        #expect(refused.tombstones == 0, "a far-future export must not supersede the real one")
        #expect(refused.exportDate == nil)
        #expect(refused.warnings["export_date_in_future"] == 1)
        #expect(refused.flaggedByReason["future_dated"] == 1, "records are judged against the clock")
        #expect(try store.status().samples.total == 101)

        var newer = ExportXMLBuilder(exportDate: "2024-05-01 09:00:00 +0200")
        for index in 0..<100 where index != 17 && index != 42 { newer.add(ExportXMLBuilder.heartRate(index)) }
        let superseding = try importXML(newer, named: "newer.xml", into: store)
        #expect(superseding.tombstones == 2, "the far-future export must not make a real one look older")
        #expect(try store.status().samples.total == 99)
    }

    @Test func aFarFutureSnapshotAlreadyRecordedIsNotBelieved() throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")), clock: clock)
        var real = ExportXMLBuilder(exportDate: "2024-04-01 09:00:00 +0200")
        real.addHeartRates(0..<10)
        _ = try importXML(real, named: "real.xml", into: store)
        // A run an earlier version recorded as a complete snapshot taken in 9999.
        let future = Instant(millisecondsSinceEpoch: 253_402_300_799_000)
        let run = try store.beginImportRun(source: "apple_health", input: "future.xml", snapshotTakenAt: future)
        try store.finishImportRun(id: run, complete: true, summaryJSON: "{}")

        var newer = ExportXMLBuilder(exportDate: "2024-05-01 09:00:00 +0200")
        for index in 0..<10 where index != 5 { newer.add(ExportXMLBuilder.heartRate(index)) }
        #expect(try importXML(newer, named: "newer.xml", into: store).tombstones == 1)
    }
}
