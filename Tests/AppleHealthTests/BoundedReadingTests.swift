import AppleHealth
import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

/// Inputs built to make the reader hold or redo work without bound: it reads each side file
/// once, and keeps a bounded part of an element of any size (M8).
@Suite struct BoundedReadingTests {
    let directory = TemporaryDirectory("bounded-reading")

    func read(_ path: String) throws -> (SourceEventLog, SourceReadReport) {
        var log = SourceEventLog()
        let report = try AppleHealthAdapter().read(SourceInput(path: path), into: &log)
        return (log, report)
    }

    @Test func aRouteFileReferencedThousandsOfTimesIsReadOnce() throws {
        let root = try ExportQuirksFixture.writeFolder(in: directory.path)
        let reference = "<FileReference path=\"\(ExportQuirksFixture.routeReference)\"/>"
        let repeated = String(repeating: reference + "\n", count: 2_000)
        let xml = ExportQuirksFixture.exportXML.replacingOccurrences(of: reference, with: repeated)
        try xml.write(toFile: root + "/" + ExportQuirksFixture.mainFileName, atomically: true, encoding: .utf8)

        let (log, report) = try read(root)
        #expect(report.complete)
        let workout = try #require(log.workouts.first)
        // Parsed once: the points are there once, not 2,000 times over.
        #expect(workout.route.count == ExportQuirksFixture.routePoints)
        #expect(report.warnings["repeated_route_file"] == 1_999)
    }

    @Test func aHugeUnknownElementIsKeptOnlyUpToItsBudget() throws {
        var builder = ExportXMLBuilder()
        builder.addHeartRates(0..<2)
        let child = "<Part note=\"" + String(repeating: "x", count: 100) + "\"/>\n"
        builder.add("<Mystery kind=\"big\">\n" + String(repeating: child, count: 60_000) + "</Mystery>")
        builder.addHeartRates(2..<4)
        let path = directory.child("export.xml")
        try builder.write(to: path)

        let (log, report) = try read(path)
        #expect(report.complete)
        #expect(log.records.count == 4, "the records on both sides of it are read")
        let mystery = try #require(log.documents.first { $0.kind == "unknown_element" })
        // About 6 MB of children in the input; the document keeps its budget's worth.
        #expect(mystery.body.utf8.count < 512 << 10, "kept \(mystery.body.utf8.count) bytes")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(mystery.body.utf8)) as? [String: Any])
        let kept = (body["children"] as? [Any])?.count ?? 0
        #expect(kept > 1_000)
        #expect(kept + (body["omitted_children"] as? Int ?? 0) == 60_000)
        #expect(report.warnings["document_truncated"] == 1)
    }

    @Test func aRouteOfAnyLengthKeepsAtMostItsBudgetOfPoints() throws {
        let root = try ExportQuirksFixture.writeFolder(in: directory.path)
        var gpx = "<?xml version=\"1.0\"?><gpx><trk><trkseg>\n"
        gpx.reserveCapacity(8 << 20)
        for index in 0..<250_000 { gpx += "<trkpt lat=\"\(index % 90)\" lon=\"1\"/>\n" }
        gpx += "</trkseg></trk></gpx>\n"
        try gpx.write(toFile: root + ExportQuirksFixture.routeReference, atomically: true, encoding: .utf8)

        let (log, report) = try read(root)
        #expect(report.complete)
        // RouteResolver.maximumPoints: 55 hours at one point a second.
        #expect(log.workouts.first?.route.count == 200_000)
        #expect(report.warnings["route_truncated"] == 1)
    }

    @Test func aRecordWithThousandsOfChildrenKeepsItsBudget() throws {
        var builder = ExportXMLBuilder()
        let entries = (0..<25_000).map { "<MetadataEntry key=\"k\($0)\" value=\"v\"/>" }.joined(separator: "\n")
        builder.add(
            ExportXMLBuilder.heartRate(0).replacingOccurrences(of: "</Record>", with: entries + "\n</Record>"))
        builder.addHeartRates(1..<3)
        let path = directory.child("export.xml")
        try builder.write(to: path)

        let (log, report) = try read(path)
        #expect(report.complete)
        #expect(log.records.count == 3)
        // PendingRecord.maximumChildren of each kind.
        #expect(log.records.first?.metadata.count == 10_000)
        #expect(report.warnings["record_children_truncated"] == 1)
    }
}
