import AppleHealth
import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

/// Records what `XMLStreamParser` delivers, as plain strings, for comparing runs.
final class XMLEventRecorder: XMLEventHandler {
    /// `<name a=v …` for a start tag, `</name` for an end tag.
    private(set) var events: [String] = []
    /// Elements directly under the root, by name.
    private(set) var topLevel: [String: Int] = [:]
    /// Every element, by name, at any depth.
    private(set) var elements: [String: Int] = [:]
    /// Every attribute value delivered.
    private(set) var values: [String] = []
    /// `consumedOffset` inside each `endElement`, with the element's name.
    private(set) var ends: [(name: String, offset: Int64)] = []
    /// Set after creating the parser, to sample `consumedOffset`.
    weak var parser: XMLStreamParser?
    private var depth = 0

    func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws {
        depth += 1
        let text = name.string
        if depth == 2 { topLevel[text, default: 0] += 1 }
        elements[text, default: 0] += 1
        var event = "<" + text
        attributes.forEach { name, value in
            event += " \(name.string)=\(value.string)"
            values.append(value.string)
        }
        events.append(event)
    }

    func endElement(_ name: XMLBytes) throws {
        depth -= 1
        events.append("</" + name.string)
        if let parser { ends.append((name.string, parser.consumedOffset)) }
    }
}

/// Inputs and a driver shared by the XML test suites.
enum XMLTestInput {
    static let curated = "curated-v14/export.xml"
    static let excerpts = "excerpts-v11/export.xml"
    /// Stands for the export.xml inside ios16-broken-dtd/export.zip.
    static let ios16 = "ios16-broken-dtd/export.zip"

    /// The main file of `ExportQuirksFixture`: every quirk of the real exports, on a clean clone.
    static var quirks: [UInt8] { Array(ExportQuirksFixture.exportXML.utf8) }

    /// The bytes of a real export under ../shared/real-exports (the zip's export.xml for `ios16`,
    /// read with the project's own ZIP reader).
    static func realExport(_ name: String) throws -> [UInt8] {
        let path = RealExports.path(name)
        guard name == ios16 else { return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }
        let archive = try ZipArchive(path: path)
        let entry = try #require(archive.entries.first { $0.name == "apple_health_export/export.xml" })
        var bytes: [UInt8] = []
        try archive.read(entry) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Parses `bytes` fed in chunks of `chunkSize`, then finishes.
    @discardableResult
    static func parse(
        _ bytes: [UInt8], chunkSize: Int = 1 << 20, readingTagsDirectly: Bool = true, into recorder: XMLEventRecorder
    ) throws -> XMLStreamParser {
        let parser = XMLStreamParser(handler: recorder, readingTagsDirectly: readingTagsDirectly)
        recorder.parser = parser
        try bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + chunkSize)
                try parser.feed(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        try parser.finish()
        return parser
    }

    /// Parses and returns the `XMLStreamError` it ended with, or nil if it parsed cleanly.
    static func failure(_ bytes: [UInt8], chunkSize: Int = 1 << 20, into recorder: XMLEventRecorder) throws
        -> XMLStreamError?
    {
        do {
            try parse(bytes, chunkSize: chunkSize, into: recorder)
            return nil
        } catch let error as XMLStreamError {
            return error
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}

@Suite struct XMLStreamParserTests {
    // Counted by hand from ExportQuirksFixture's text; RealExportTests.StreamParsing runs the
    // same checks on the real exports.
    @Test("the generated export: top-level elements and every element, as counted by hand")
    func generatedExportCounts() throws {
        try Self.expectCounts(
            XMLTestInput.quirks, topLevel: ExportQuirksFixture.topLevel,
            elements: ExportQuirksFixture.elementCount)
    }

    @Test("1-byte and odd-sized chunks give the same events as one chunk")
    func chunkingDoesNotMatter() throws {
        try Self.expectChunkingDoesNotMatter(XMLTestInput.quirks, elements: ExportQuirksFixture.elementCount)
    }

    @Test("consumedOffset in endElement is just past the element, in original-file offsets")
    func consumedOffsetIsACursor() throws {
        try Self.expectConsumedOffsetIsACursor(XMLTestInput.quirks, records: ExportQuirksFixture.recordTags)
    }

    /// Top-level elements by name and the count of every element, with no warnings, to the end.
    static func expectCounts(_ bytes: [UInt8], topLevel: [String: Int], elements: Int) throws {
        let recorder = XMLEventRecorder()
        let parser = try XMLTestInput.parse(bytes, into: recorder)
        #expect(recorder.topLevel["Record"] == topLevel["Record"])
        #expect(recorder.topLevel["Workout"] == topLevel["Workout"])
        #expect(recorder.topLevel == topLevel)
        #expect(recorder.elements.values.reduce(0, +) == elements)
        #expect(parser.warnings.isEmpty)
        #expect(parser.consumedOffset == Int64(bytes.count))
    }

    static func expectChunkingDoesNotMatter(_ bytes: [UInt8], elements: Int) throws {
        let whole = XMLEventRecorder()
        try XMLTestInput.parse(bytes, into: whole)
        for chunkSize in [1, 2, 7, 1000] {
            let pieces = XMLEventRecorder()
            try XMLTestInput.parse(bytes, chunkSize: chunkSize, into: pieces)
            #expect(pieces.events == whole.events, "chunk size \(chunkSize)")
        }
        #expect(whole.events.count == 2 * elements)
    }

    /// `records` counts every `<Record`, nested ones included.
    static func expectConsumedOffsetIsACursor(_ bytes: [UInt8], records: Int) throws {
        for chunkSize in [1, 1 << 20] {
            let recorder = XMLEventRecorder()
            try XMLTestInput.parse(bytes, chunkSize: chunkSize, into: recorder)
            #expect(recorder.ends.filter { $0.name == "Record" }.count == records)
            for (name, offset) in recorder.ends {
                let before = String(decoding: bytes[..<Int(offset)].suffix(name.count + 3), as: UTF8.self)
                #expect(before.hasSuffix("</\(name)>") || before.hasSuffix("/>"), "\(name) at \(offset)")
            }
            let offsets = recorder.ends.map(\.offset)
            #expect(offsets == offsets.sorted())
        }
    }

    @Test("&#38;, &#x26;, &#60; and the predefined entities are decoded in attribute values")
    func characterReferences() throws {
        let xml = """
            <r amp="x &amp; y" dec="&#38;" hex="&#x26;" lt="&#60;tag&#62;" named="&lt;&gt;&quot;&apos;" \
            literal="&amp;#38;" plain="plain" astral="&#x1F3C3;&#128512;"/>
            """
        let recorder = XMLEventRecorder()
        try XMLTestInput.parse(XMLTestInput.bytes(xml), into: recorder)
        #expect(
            recorder.values == ["x & y", "&", "&", "<tag>", "<>\"'", "&#38;", "plain", "\u{1F3C3}\u{1F600}"])
    }

    @Test("U+2019, NBSP and emoji in attribute values survive, whole and byte by byte")
    func unicodeSurvives() throws {
        let names = [
            "Simon\u{2019}s iPhone", "Health\u{00A0}Mate",
            "\u{1F55B}\u{1F550} \u{1F3C3}\u{200D}\u{2640}\u{FE0F}",
        ]
        let xml = "<HealthData>" + names.map { "<Record sourceName=\"\($0)\"/>" }.joined() + "</HealthData>"
        for chunkSize in [1, 4096] {
            let recorder = XMLEventRecorder()
            try XMLTestInput.parse(XMLTestInput.bytes(xml), chunkSize: chunkSize, into: recorder)
            #expect(recorder.values == names)
        }
    }

    @Test("XMLAttributes: lookup by name, missing names, order, count")
    func attributesAPI() throws {
        final class Probe: XMLEventHandler {
            var checked = false
            func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws {
                guard name == "Record" else { return }
                #expect(attributes.count == 3)
                #expect(attributes["unit"].map { $0 == "count/min" } == true)
                #expect(attributes["value"]?.string == "72")
                #expect(attributes.string("type") == "HKQuantityTypeIdentifierHeartRate")
                #expect(attributes["missing"] == nil)
                #expect(attributes["valu"] == nil)
                var names: [String] = []
                attributes.forEach { name, _ in names.append(name.string) }
                #expect(names == ["type", "unit", "value"])
                #expect(!(name == "Recor") && !(name == "Records"))
                checked = true
            }
            func endElement(_ name: XMLBytes) throws {}
        }
        let probe = Probe()
        let parser = XMLStreamParser(handler: probe)
        let xml =
            #"<HealthData><Record type="HKQuantityTypeIdentifierHeartRate" unit="count/min" value="72"/>"#
            + "</HealthData>"
        try XMLTestInput.bytes(xml).withUnsafeBytes { try parser.feed($0) }
        try parser.finish()
        #expect(probe.checked)
    }

    @Test("a handler's error stops the parse and comes back unchanged, then sticks")
    func handlerErrorsStop() throws {
        struct Refused: Error, Equatable { var at: String }
        final class Refusing: XMLEventHandler {
            let at: String
            var seen: [String] = []
            init(at: String) { self.at = at }
            func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws {
                seen.append(name.string)
                if name.string == at { throw Refused(at: at) }
            }
            func endElement(_ name: XMLBytes) throws {
                if "/" + name.string == at { throw Refused(at: at) }
            }
        }
        let xml = XMLTestInput.bytes("<a><b/><c><d/></c><e/></a>")
        for at in ["a", "b", "/b", "d", "/c", "/a"] {
            let handler = Refusing(at: at)
            let parser = XMLStreamParser(handler: handler)
            #expect(throws: Refused(at: at)) {
                try xml.withUnsafeBytes { try parser.feed($0) }
                try parser.finish()
            }
            #expect(throws: Refused(at: at)) { try parser.finish() }
            #expect(!handler.seen.contains("e") || at == "/a")
        }
    }

    @Test("an XMLTextHandler receives text; whitespace and CDATA included")
    func textHandler() throws {
        final class Text: XMLTextHandler {
            var text = ""
            func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws {}
            func endElement(_ name: XMLBytes) throws {}
            func characters(_ text: XMLBytes) { self.text += text.string }
        }
        let handler = Text()
        let parser = XMLStreamParser(handler: handler)
        let xml = "<gpx><ele>12.5</ele> <time>A &amp; B &#60;</time><![CDATA[<x>]]></gpx>"
        try XMLTestInput.bytes(xml).withUnsafeBytes { try parser.feed($0) }
        try parser.finish()
        #expect(handler.text == "12.5 A & B <<x>")
    }

    @Test("a DOCTYPE inside a prolog comment is left to libxml2 as a comment")
    func doctypeInComment() throws {
        let xml = """
            <?xml version="1.0"?><!-- <!DOCTYPE x [ <!ENTITY a "b"> ]> -->
            <!DOCTYPE r [ <!-- ]> <!ENTITY is only words here --> <!ELEMENT r EMPTY> ]>
            <r a="1"/>
            """
        let recorder = XMLEventRecorder()
        try XMLTestInput.parse(XMLTestInput.bytes(xml), chunkSize: 1, into: recorder)
        #expect(recorder.events == ["<r a=1", "</r"])
    }
}
