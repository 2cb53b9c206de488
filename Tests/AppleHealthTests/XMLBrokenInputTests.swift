import AppleHealth
import Foundation
import HealthETLTestSupport
import Testing

/// X3 and X4 of docs/reliability.md: cut, mis-encoded, mis-nested and slightly illegal files.
@Suite struct XMLBrokenInputTests {
    /// Byte offsets where each `needle` starts in `bytes`.
    static func offsets(of needle: String, in bytes: [UInt8]) -> [Int] {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return [] }
        return (0...(bytes.count - pattern.count)).filter {
            bytes[$0..<($0 + pattern.count)].elementsEqual(pattern)
        }
    }

    /// The 1-based line of `offset` and the byte range of that line.
    static func line(of offset: Int, in bytes: [UInt8]) -> (number: Int, range: ClosedRange<Int>) {
        let start = (bytes[..<offset].lastIndex(of: 0x0A) ?? -1) + 1
        let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
        return (bytes[..<offset].filter { $0 == 0x0A }.count + 1, start...end)
    }

    /// `bytes` with the first occurrence of `old` replaced by `new`, and where that was.
    static func replacing(_ old: String, with new: [UInt8], in bytes: [UInt8], after start: Int = 0)
        throws -> ([UInt8], Int)
    {
        let at = try #require(offsets(of: old, in: bytes).first { $0 >= start })
        var edited = bytes
        edited.replaceSubrange(at..<(at + old.utf8.count), with: new)
        return (edited, at)
    }

    // Each check runs here on ExportQuirksFixture and in RealExportTests.BrokenInput on the real
    // exports. Damage goes into the first Record's sourceName, before any Record ends.
    static let firstSourceName = "Simon’s iPhone"

    @Test(
        "X3: the generated export cut at random offsets: truncated, with a position; earlier records delivered"
    )
    func truncatedAnywhere() throws {
        try Self.expectCutAnywhereIsTruncated(XMLTestInput.quirks, records: ExportQuirksFixture.recordTags)
    }

    @Test(
        "X3: invalid UTF-8 in an attribute value is an encoding error at its line",
        arguments: invalidSequences)
    func invalidUTF8(_ garbage: [UInt8]) throws {
        try Self.expectInvalidUTF8IsAnEncodingError(
            XMLTestInput.quirks, garbage: garbage, in: Self.firstSourceName)
    }

    @Test("X3: a mismatched tag is malformed, at the right line", arguments: [1, 1 << 20])
    func mismatchedTag(chunkSize: Int) throws {
        let small = try #require(
            try XMLTestInput.failure(
                XMLTestInput.bytes("<a>\n<b>\n</c>\n</a>\n"), chunkSize: chunkSize, into: XMLEventRecorder()))
        #expect(small.kind == .malformed)
        #expect(small.line == 3)

        // After the 31-line broken DTD the filter dropped: positions must be the original file's.
        // The first `</Record>` closes the second Record (the first is self-closing).
        try Self.expectMismatchedRecordEndIsMalformed(
            XMLTestInput.quirks, chunkSize: chunkSize, line: ExportQuirksFixture.firstRecordEndLine,
            recordsStarted: 2)

        // On the DOCTYPE's own line: columns and offsets account for the dropped bytes.
        let oneLine = XMLTestInput.bytes(#"<!DOCTYPE r [ <!ELEMENT r ANY> ]><r></s>"#)
        let sameLine = try #require(
            try XMLTestInput.failure(oneLine, chunkSize: chunkSize, into: XMLEventRecorder()))
        #expect(sameLine.kind == .malformed)
        #expect(sameLine.line == 1)
        #expect(sameLine.column > 36 && sameLine.byteOffset >= 36, "\(sameLine)")
        #expect(sameLine.byteOffset <= Int64(oneLine.count))
    }

    @Test("X3: empty input, a cut DOCTYPE and a prolog alone are truncated")
    func nothingToRead() throws {
        for text in [
            "", "<?xml version=\"1.0\"?>", "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT",
        ] {
            let error = try #require(
                try XMLTestInput.failure(XMLTestInput.bytes(text), into: XMLEventRecorder()), "\(text)")
            #expect(error.kind == .truncated, "\(text): \(error)")
        }
    }

    @Test(
        "X4: a DTD broken as iOS 16's is parses fully, byte by byte too",
        arguments: [1, 1 << 20])
    func iOS16BrokenDTD(chunkSize: Int) throws {
        try Self.expectBrokenDTDParsesFully(
            XMLTestInput.quirks, faults: ExportQuirksFixture.dtdFaults, chunkSize: chunkSize,
            topLevel: ExportQuirksFixture.topLevel)
    }

    @Test("X4: the generated DTD really is broken: a strict parser (Python's expat) stops inside it")
    func generatedDTDStopsAStrictParser() throws {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c", "import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.buffer.read())",
        ]
        let input = Pipe()
        let error = Pipe()
        python.standardInput = input
        python.standardError = error
        try python.run()
        input.fileHandleForWriting.write(Data(XMLTestInput.quirks))
        try input.fileHandleForWriting.close()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(python.terminationStatus != 0)
        // Line 20 is `<!ELEMENT RightEye`, inside the ATTLIST left open on line 17.
        #expect(message.contains("syntax error: line 20"), "\(message)")
    }

    @Test(
        "X4: raw control characters in values become spaces; the record survives; counted",
        arguments: [1, 1 << 20])
    func illegalControlCharacters(chunkSize: Int) throws {
        try Self.expectControlCharacterBecomesASpace(
            XMLTestInput.quirks, in: Self.firstSourceName, chunkSize: chunkSize,
            records: ExportQuirksFixture.topLevel["Record"] ?? 0)

        let several = XMLTestInput.bytes("<r a=\"\u{01}x\u{0C}\" b=\"\u{1F}\">t\u{00}\u{08}\te\u{0B}</r>")
        let other = XMLEventRecorder()
        let counted = try XMLTestInput.parse(several, chunkSize: chunkSize, into: other)
        #expect(other.values == [" x ", " "])
        #expect(counted.warnings == ["illegal_control_character": 6])
    }

    // MARK: - The checks, for any export

    static let invalidSequences: [[UInt8]] = [
        [0xFF, 0xFE], [0x80], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
    ]

    /// Cut at 200 random offsets and at the DOCTYPE's edges: truncated or malformed, at or before
    /// the cut, with exactly the Records that ended before it delivered (`records` counts every
    /// `<Record `, nested ones included).
    static func expectCutAnywhereIsTruncated(_ bytes: [UInt8], records: Int) throws {
        let complete = XMLEventRecorder()
        try XMLTestInput.parse(bytes, into: complete)
        let recordEnds = complete.ends.filter { $0.name == "Record" }.map { Int($0.offset) }
        let rootEnd = Int(try #require(complete.ends.last).offset)
        let recordStarts = Self.offsets(of: "<Record ", in: bytes)
        #expect(recordStarts.count == records && recordEnds.count == records)
        let doctypeEnd = try #require(Self.offsets(of: "]>", in: bytes).first)

        var generator = SeededGenerator(seed: 20_240_114)
        var cuts = (0..<200).map { _ in Int.random(in: 1..<rootEnd, using: &generator) }
        cuts += [0, 1, 20, 60, doctypeEnd - 1, doctypeEnd, doctypeEnd + 1, doctypeEnd + 2, rootEnd - 1]
        for (index, cut) in cuts.enumerated() {
            let recorder = XMLEventRecorder()
            let chunkSize = index % 10 == 0 ? 1 : 4096
            let error = try XMLTestInput.failure(Array(bytes[..<cut]), chunkSize: chunkSize, into: recorder)
            guard let error else {
                Issue.record("cut at \(cut) parsed as complete")
                continue
            }
            #expect(error.kind == .truncated || error.kind == .malformed, "cut at \(cut): \(error)")
            #expect(
                error.line >= 1 && error.line <= Self.line(of: cut, in: bytes).number,
                "cut at \(cut): \(error)")
            #expect((0...Int64(cut)).contains(error.byteOffset), "cut at \(cut): \(error)")
            let delivered = recorder.elements["Record"] ?? 0
            let lower = recordEnds.filter { $0 <= cut }.count
            let upper = recordStarts.filter { $0 < cut }.count
            #expect(
                delivered >= lower && delivered <= upper,
                "cut at \(cut): \(delivered) records, not \(lower)...\(upper)")
        }
    }

    /// `garbage` put inside the first `sourceName="value"` after the root, which must come before
    /// any Record ends: an encoding error at that line, and no Record delivered.
    static func expectInvalidUTF8IsAnEncodingError(_ bytes: [UInt8], garbage: [UInt8], in value: String)
        throws
    {
        let body = try #require(Self.offsets(of: "<HealthData", in: bytes).first)
        let (edited, at) = try Self.replacing(
            "sourceName=\"\(value)\"",
            with: Array("sourceName=\"\(value.prefix(2))".utf8) + garbage
                + Array("\(value.dropFirst(2))\"".utf8),
            in: bytes, after: body)
        let recorder = XMLEventRecorder()
        let error = try #require(try XMLTestInput.failure(edited, into: recorder))
        let line = Self.line(of: at, in: edited)
        #expect(error.kind == .encoding || error.kind == .malformed, "\(error)")
        #expect(error.line == line.number, "\(error)")
        #expect(line.range.contains(Int(error.byteOffset)), "\(error) not within \(line.range)")
        #expect(recorder.elements["Record"] == nil)
    }

    /// The first `</Record>` misspelt: malformed at `line`, within it, after `recordsStarted`
    /// Record start tags were delivered.
    static func expectMismatchedRecordEndIsMalformed(
        _ bytes: [UInt8], chunkSize: Int, line expected: Int, recordsStarted: Int
    )
        throws
    {
        let (edited, at) = try Self.replacing("</Record>", with: Array("</Recrd>".utf8), in: bytes)
        let recorder = XMLEventRecorder()
        let error = try #require(try XMLTestInput.failure(edited, chunkSize: chunkSize, into: recorder))
        let line = Self.line(of: at, in: edited)
        #expect(error.kind == .malformed)
        #expect(error.line == line.number && line.number == expected, "\(error)")
        #expect(line.range.contains(Int(error.byteOffset)), "\(error) not within \(line.range)")
        #expect(error.column >= 1 && error.column <= line.range.count, "\(error)")
        #expect(recorder.elements["Record"] == recordsStarted)
    }

    /// The DTD holds each of `faults` (so it really is broken), yet everything after it parses,
    /// with no warning.
    static func expectBrokenDTDParsesFully(
        _ bytes: [UInt8], faults: [String], chunkSize: Int, topLevel: [String: Int]
    )
        throws
    {
        let text = String(decoding: bytes, as: UTF8.self)
        let doctypeEnd = try #require(text.range(of: "]>"))
        for fault in faults {
            #expect(text[..<doctypeEnd.upperBound].contains(fault), "the DTD lacks \(fault.debugDescription)")
        }
        let recorder = XMLEventRecorder()
        let parser = try XMLTestInput.parse(bytes, chunkSize: chunkSize, into: recorder)
        #expect(recorder.topLevel == topLevel)
        #expect(parser.warnings.isEmpty)
    }

    /// A raw vertical tab put into the first `sourceName="value"`: a space in the value, the
    /// export's `records` top-level Records all delivered, one warning.
    static func expectControlCharacterBecomesASpace(
        _ bytes: [UInt8], in value: String, chunkSize: Int, records: Int
    )
        throws
    {
        let (edited, _) = try Self.replacing(
            "sourceName=\"\(value)\"",
            with: Array("sourceName=\"\(value.prefix(2))\u{0B}\(value.dropFirst(2))\"".utf8),
            in: bytes)
        let recorder = XMLEventRecorder()
        let parser = try XMLTestInput.parse(edited, chunkSize: chunkSize, into: recorder)
        #expect(recorder.topLevel["Record"] == records)
        #expect(recorder.values.contains("\(value.prefix(2)) \(value.dropFirst(2))"))
        #expect(parser.warnings == ["illegal_control_character": 1])
    }
}
