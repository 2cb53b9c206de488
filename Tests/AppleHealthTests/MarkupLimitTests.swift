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

    /// An overlong value inside an element already refused for its own overlong value: the inner
    /// one crosses the parser's slices while the outer is being blanked. It was cut a second time,
    /// writing a stray `"/>` that left `</Mystery>` unmatched and ended the parse.
    @Test func anOverlongValueInsideARefusedElementIsBlankedWithIt() throws {
        let element =
            "<Mystery note=\"" + String(repeating: "v", count: 1_100_000) + "\"><Inner v=\""
            + String(repeating: "w", count: 2_200_000) + "\"/><Kept/></Mystery>"
        let (log, report) = try read(around: element)
        #expect(report.complete, "\(report.problem ?? "")")
        #expect(report.warnings["attribute_value_too_long"] == 1, "\(report.warnings)")
        #expect(log.records.count == 4, "the records around the refused element are read")
    }

    // Past libxml2's own limits (depth 256, names of 50,000 bytes, values of 10 MB), which end the
    // whole parse: the filter cuts such elements down before libxml2 sees them.

    @Test func anElementNestedPastLibxml2sDepthLimitIsRefusedQuickly() throws {
        let depth = 100_000
        let element =
            "<Mystery>" + String(repeating: "<Deeper x=\"1\">\n", count: depth)
            + String(repeating: "</Deeper>", count: depth) + "</Mystery>"
        let started = ContinuousClock.now
        let (log, report) = try read(around: element)
        #expect(report.complete, "\(report.problem ?? "")")
        #expect(report.warnings["element_too_deep"] == 1, "\(report.warnings)")
        #expect(log.records.count == 4)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func anElementWithANamePastLibxml2sLimitIsRefusedWithItsContent() throws {
        let name = String(repeating: "N", count: 60_000)
        try expectRefused("<\(name) a=\"1\"><Child b=\"2\"/></\(name)>", reason: "element_name_too_long")
    }

    @Test func anAttributeWithANamePastLibxml2sLimitIsRefused() throws {
        try expectRefused(
            "<Mystery " + String(repeating: "a", count: 60_000) + "=\"1\"/>", reason: "attribute_name_too_long")
    }

    @Test func aValuePastLibxml2sLimitIsRefusedQuickly() throws {
        let started = ContinuousClock.now
        try expectRefused(
            "<Mystery note=\"" + String(repeating: "v", count: 12_000_000) + "\" other=\"2\"/>",
            reason: "attribute_value_too_long")
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    /// A value is ended where it can be: never inside a reference or a UTF-8 sequence.
    @Test(arguments: ["&amp;", "&#x1F600;", "é", "\u{1F600}"])
    func aLongValueIsCutBetweenCharacters(_ unit: String) throws {
        let value = String(repeating: "x" + unit, count: (3 << 20) / (unit.utf8.count + 1))
        for chunkSize in [4_093, 1 << 20] {
            let recorder = XMLEventRecorder()
            let parser = try XMLTestInput.parse(
                XMLTestInput.bytes("<R><a/><Mystery note=\"\(value)\"/><b/></R>"), chunkSize: chunkSize,
                into: recorder)
            #expect(parser.warnings["attribute_value_too_long"] == 1, "\(parser.warnings)")
            #expect(recorder.elements == ["R": 1, "a": 1, "b": 1])
        }
    }

    @Test func aStartTagPastLibxml2sLookupLimitIsRefused() throws {
        let started = ContinuousClock.now
        let value = String(repeating: "v", count: 1 << 20)
        var element = "<Mystery"
        for index in 0..<12 { element += " a\(index)=\"\(value)\"" }
        try expectRefused(element + "><Child/></Mystery>", reason: "start_tag_too_long")
        try expectRefused(
            "<Mystery a=\"1\"" + String(repeating: " ", count: 12_000_000) + "/>", reason: "start_tag_too_long")
        // Whitespace is passed over once: each byte of it taken again made this quadratic (minutes).
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func anEndTagPastTheLimitIsEndedEarly() throws {
        let recorder = XMLEventRecorder()
        let parser = try XMLTestInput.parse(
            XMLTestInput.bytes("<R><a></a" + String(repeating: " ", count: 12_000_000) + "><b/></R>"), into: recorder)
        #expect(parser.warnings.isEmpty)
        #expect(recorder.elements == ["R": 1, "a": 1, "b": 1])
    }

    /// Comments, instructions and character data past libxml2's limits are passed over, never
    /// the end of the read.
    @Test(arguments: [
        ("<!-- ", " -->", "comment_too_long"), ("<?note ", "?>", "instruction_too_long"),
        ("<Mystery><![CDATA[", "]]></Mystery>", "character_data_too_long"),
    ])
    func hugeCommentsInstructionsAndCharacterDataAreEndedEarly(_ opening: String, _ closing: String, _ kind: String)
        throws
    {
        let started = ContinuousClock.now
        let (log, report) = try read(around: opening + String(repeating: "c\n", count: 6_000_000) + closing)
        #expect(report.complete, "\(report.problem ?? "")")
        #expect(report.warnings[kind] == 1, "\(report.warnings)")
        #expect(log.records.count == 4)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func theLimitsThemselvesAreKept() throws {
        let deepest = String(repeating: "<d>", count: 63) + String(repeating: "</d>", count: 63)
        let name = String(repeating: "n", count: 1_024)
        let value = String(repeating: "v", count: 1 << 20)
        let document = "<R>\(deepest)<\(name) \(name)=\"\(value)\"></\(name)></R>"
        let recorder = XMLEventRecorder()
        let parser = try XMLTestInput.parse(XMLTestInput.bytes(document), into: recorder)
        #expect(parser.warnings.isEmpty, "\(parser.warnings)")
        #expect(recorder.elements == ["R": 1, "d": 63, name: 1])
    }

    @Test func oneLevelPastTheDepthLimitIsRefused() throws {
        let chain = String(repeating: "<d>", count: 64) + "text" + String(repeating: "</d>", count: 64)
        let recorder = XMLEventRecorder()
        let parser = try XMLTestInput.parse(XMLTestInput.bytes("<R>\(chain)<after/></R>"), into: recorder)
        #expect(parser.warnings == ["element_too_deep": 1])
        #expect(recorder.elements == ["R": 1, "d": 63, "after": 1])
    }

    /// Markup inside comments, character data, instructions and values never counts as elements.
    @Test func tagsInsideCommentsAndValuesDoNotCount() throws {
        let opened = String(repeating: "<d>", count: 62)
        let closed = String(repeating: "</d>", count: 62)
        let document =
            "<R>\(opened)<!-- <x><x><x> --><![CDATA[<x><x>]]><?pi <x>?><leaf v=\"&lt;x>\" w='>'/>\(closed)</R>"
        let recorder = XMLEventRecorder()
        let parser = try XMLTestInput.parse(XMLTestInput.bytes(document), chunkSize: 5, into: recorder)
        #expect(parser.warnings.isEmpty, "\(parser.warnings)")
        #expect(recorder.elements["leaf"] == 1)
    }

    /// Every limit at once, read in chunks of every size: the same elements and refusals, and
    /// the line of a later error still right.
    @Test(arguments: [1, 7, 64, 1 << 20])
    func chunkingDoesNotChangeWhatIsRefused(_ chunkSize: Int) throws {
        var document = "<R>\n<a/>\n"
        document += String(repeating: "<d>\n", count: 70) + String(repeating: "</d>\n", count: 70)
        document += "<many"
        for index in 0..<300 { document += " a\(index)=\"\(index)\"" }
        document += "><child/></many>\n"
        document += "<" + String(repeating: "é", count: 600) + "/>\n"
        document += "<v x=\"" + String(repeating: "&lt;", count: 1_000) + "\"/>\n<b/>\n<broken =/>\n</R>"
        let recorder = XMLEventRecorder()
        let parser = XMLStreamParser(handler: recorder)
        var failure: XMLStreamError?
        do {
            try Array(document.utf8).withUnsafeBytes { all in
                for start in stride(from: 0, to: all.count, by: chunkSize) {
                    try parser.feed(UnsafeRawBufferPointer(rebasing: all[start..<min(all.count, start + chunkSize)]))
                }
            }
            try parser.finish()
        } catch let error as XMLStreamError {
            failure = error
        }
        let brokenLine = document.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.hasPrefix("<broken") }.map { $0 + 1 }
        #expect(failure?.line == brokenLine, "\(String(describing: failure))")
        #expect(recorder.elements == ["R": 1, "a": 1, "d": 63, "v": 1, "b": 1])
        #expect(
            parser.warnings
                == ["element_too_deep": 1, "element_with_too_many_attributes": 1, "element_name_too_long": 1])
    }
}
