import AppleHealth
import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

/// Elements past the markup limits (attributes, depth, name and value length) are refused with a
/// reason, and the records around them are read (M7).
@Suite struct MarkupLimitTests {
    let directory = TemporaryDirectory("markup-limits")

    /// Reads an export with `element` between two pairs of heart-rate records.
    func read(around element: String) throws -> (SourceEventLog, SourceReadReport) {
        var builder = ExportXMLBuilder()
        builder.addHeartRates(0..<2)
        builder.add(element)
        builder.addHeartRates(2..<4)
        let path = directory.child("export.xml")
        try builder.write(to: path)
        var log = SourceEventLog()
        let report = try AppleHealthAdapter().read(SourceInput(path: path), into: &log)
        return (log, report)
    }

    func expectRefused(_ element: String, reason: String) throws {
        let (log, report) = try read(around: element)
        #expect(report.complete, "\(report.problem ?? "")")
        #expect(report.warnings[reason] == 1, "\(report.warnings)")
        #expect(log.records.count == 4, "the records around the refused element are read")
        #expect(log.documents.allSatisfy { $0.kind != "unknown_element" }, "the refused element was delivered")
    }

    @Test func anElementWithTwoHundredThousandAttributesIsRefusedQuickly() throws {
        var element = "<Record type=\"HKQuantityTypeIdentifierHeartRate\""
        element.reserveCapacity(3_000_000)
        for index in 0..<200_000 { element += " a\(index)=\"\(index)\"" }
        element += "/>"
        let started = ContinuousClock.now
        try expectRefused(element, reason: "element_with_too_many_attributes")
        // libxml2's pairwise duplicate check made this take about 8 s; capped, it is a linear scan.
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    @Test func anElementWithAttributesUpToTheLimitIsRead() throws {
        var element = "<Mystery"
        for index in 0..<256 { element += " a\(index)=\"\(index)\"" }
        element += "/>"
        let (log, report) = try read(around: element)
        #expect(report.warnings["element_with_too_many_attributes"] == nil)
        let mystery = try #require(log.documents.first { $0.kind == "unknown_element" })
        #expect(mystery.body.contains("\"a255\""))
    }

    @Test func anElementNestedTooDeeplyIsRefusedWithItsDescendants() throws {
        let depth = 100
        let element =
            "<Mystery>" + String(repeating: "<Deeper x=\"1\">", count: depth)
            + String(repeating: "</Deeper>", count: depth) + "</Mystery>"
        let (log, report) = try read(around: element)
        #expect(report.complete)
        #expect(report.warnings["element_too_deep"] == 1)
        #expect(log.records.count == 4)
    }

    @Test func anElementWithAnOverlongNameIsRefused() throws {
        try expectRefused("<" + String(repeating: "N", count: 5_000) + " a=\"1\"/>", reason: "element_name_too_long")
    }

    @Test func anElementWithAnOverlongValueIsRefused() throws {
        try expectRefused(
            "<Mystery note=\"" + String(repeating: "v", count: 2 << 20) + "\"/>", reason: "attribute_value_too_long")
    }
}
