import AppleHealth
import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

/// The export's side files (ECG recordings, GPX routes) when one of them is broken: the broken
/// item is refused with a reason, and everything around it is still read.
@Suite struct SideFileFaultTests {
    let directory = TemporaryDirectory("side-file-faults")

    static let ecgEntry = ExportQuirksFixture.folderName + "/electrocardiograms/" + ExportQuirksFixture.ecgFileName

    func read(_ path: String) throws -> (SourceEventLog, SourceReadReport) {
        var log = SourceEventLog()
        let report = try AppleHealthAdapter().read(SourceInput(path: path), into: &log)
        return (log, report)
    }

    /// The fixture's ECG recorded on another day, with its sample rate written as `rate`.
    static func ecg(day: String = "2024-03-02", rate: String = "512 hertz") -> String {
        ExportQuirksFixture.ecgCSV.replacingOccurrences(of: "2024-03-02 09:12:44", with: day + " 09:12:44")
            .replacingOccurrences(of: "Sample Rate,512 hertz", with: "Sample Rate,\(rate)")
    }

    @Test func anECGThatFailsItsCRCLeavesTheReadIncompleteAndTheOtherECGsRead() throws {
        var archive = ExportQuirksFixture.archive()
        archive.addStored(
            ExportQuirksFixture.folderName + "/electrocardiograms/ecg_2024-03-03.csv", Self.ecg(day: "2024-03-03"))
        let damaged = try #require(archive.entries.firstIndex { $0.name == Array(Self.ecgEntry.utf8) })
        archive.entries[damaged].crc32 ^= 1
        let path = directory.child("export.zip")
        try archive.write(to: path)

        let (log, report) = try read(path)
        #expect(!report.complete, "a complete read would let supersession delete the unread ECG's older copy")
        #expect(report.problem?.contains(ExportQuirksFixture.ecgFileName) == true, "\(report.problem ?? "")")
        #expect(log.records.count == ExportQuirksFixture.topLevel["Record"])
        #expect(log.documents.filter { $0.kind == "ecg" }.count == 1)
        #expect(log.auxiliaryRecords.count == 1)
    }

    @Test(arguments: ["1e-300 hertz", "0 hertz", "-512 hertz", "inf hertz", "nan hertz"])
    func anECGWithAnImpossibleSampleRateIsQuarantinedWithItsRate(_ rate: String) throws {
        let root = try ExportQuirksFixture.writeFolder(in: directory.path)
        try Self.ecg(rate: rate).write(
            toFile: root + "/electrocardiograms/" + ExportQuirksFixture.ecgFileName, atomically: true, encoding: .utf8)

        let (log, report) = try read(root)
        #expect(report.complete)
        let (record, _) = try #require(log.auxiliaryRecords.first)
        let normalizer = Normalizer(
            catalog: try MetricCatalog.bundled(),
            now: Instant(millisecondsSinceEpoch: ExportQuirksFixture.exportDateMilliseconds))
        guard case .quarantined(let refused) = normalizer.normalize(record) else {
            Issue.record("an ECG with sample rate \(rate) was not quarantined")
            return
        }
        #expect(refused.reason == .unparseableDate)
        #expect(refused.detail.contains(rate), "\(refused.detail)")
    }

    @Test func routePointsOffTheGlobeAreRefusedAndTheRestOfTheRouteKept() throws {
        let root = try ExportQuirksFixture.writeFolder(in: directory.path)
        var gpx = ExportQuirksFixture.routeGPX
        for (index, bad) in [(2, "nan"), (4, "inf"), (6, "91.5")] {
            gpx = gpx.replacingOccurrences(
                of: "lat=\"\(ExportQuirksFixture.routeLatitude(index))\"", with: "lat=\"\(bad)\"")
        }
        try gpx.write(toFile: root + ExportQuirksFixture.routeReference, atomically: true, encoding: .utf8)

        let (log, report) = try read(root)
        #expect(report.complete)
        #expect(report.warnings["invalid_route_point"] == 3)
        let workout = try #require(log.workouts.first)
        #expect(workout.route.count == ExportQuirksFixture.routePoints - 3)
        #expect(workout.route.allSatisfy { $0.latitude.isFinite && abs($0.latitude) <= 90 })
    }

    @Test func symlinkedFoldersInAnUnzippedExportAreNotFollowed() throws {
        for name in ["export", "elsewhere"] {
            try FileManager.default.createDirectory(atPath: directory.child(name), withIntermediateDirectories: true)
        }
        let root = try ExportQuirksFixture.writeFolder(in: directory.child("export"))
        // The same files outside the export, and the export's folders replaced by links to them.
        let outside = try ExportQuirksFixture.writeFolder(in: directory.child("elsewhere"))
        for folder in ["workout-routes", "electrocardiograms"] {
            try FileManager.default.removeItem(atPath: root + "/" + folder)
            try FileManager.default.createSymbolicLink(
                atPath: root + "/" + folder, withDestinationPath: outside + "/" + folder)
        }

        let (log, report) = try read(root)
        #expect(report.complete)
        #expect(log.workouts.first?.route.isEmpty == true, "the route behind the link was read")
        #expect(report.warnings["route_file_missing"] == 1)
        #expect(!log.documents.contains { $0.kind == "ecg" }, "the ECG behind the link was read")
    }
}
