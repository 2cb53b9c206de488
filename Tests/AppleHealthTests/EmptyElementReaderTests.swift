import AppleHealth
import HealthETLTestSupport
import Testing

/// Empty elements and start tags read without libxml2 (`XMLTagReader`) must give what libxml2
/// gives: the same events, attributes, positions, warnings and errors, on every document. The
/// reference is the same parser with every element left to libxml2.
@Suite struct EmptyElementReaderTests {
    /// Everything a run delivers that a reader could get wrong.
    struct Outcome: Equatable, CustomStringConvertible {
        var events: [String]
        var ends: [String]
        var warnings: [String: Int]
        var topLevelEnd: Int64
        var error: String?
        /// Not compared: how many empty elements, and start tags of elements with content, the
        /// direct reader took.
        var readDirectly = 0
        var startTagsReadDirectly = 0

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            (lhs.events, lhs.ends, lhs.warnings, lhs.topLevelEnd, lhs.error)
                == (rhs.events, rhs.ends, rhs.warnings, rhs.topLevelEnd, rhs.error)
        }

        var description: String { "\(error ?? "no error"); \(events.count) events; warnings \(warnings)" }
    }

    static func outcome(_ bytes: [UInt8], chunkSize: Int, direct: Bool) -> Outcome {
        let recorder = XMLEventRecorder()
        var problem: String?
        var parser: XMLStreamParser?
        do {
            parser = try XMLTestInput.parse(bytes, chunkSize: chunkSize, readingTagsDirectly: direct, into: recorder)
        } catch let failure as XMLStreamError {
            problem =
                "\(failure.kind) line \(failure.line) column \(failure.column) byte \(failure.byteOffset): \(failure.message)"
        } catch {
            problem = "\(error)"
        }
        return Outcome(
            events: recorder.events, ends: recorder.ends.map { "\($0.name)@\($0.offset)" },
            warnings: parser?.warnings ?? [:], topLevelEnd: parser?.topLevelEnd ?? -1, error: problem,
            readDirectly: recorder.parser?.elementsReadDirectly ?? 0,
            startTagsReadDirectly: recorder.parser?.startTagsReadDirectly ?? 0)
    }

    /// - Returns: how many empty elements the direct reader took in the first chunking.
    @discardableResult
    static func expectSame(_ bytes: [UInt8], chunkSizes: [Int] = [1 << 20, 7], _ comment: String = "") -> Int {
        directOutcomes(bytes, chunkSizes: chunkSizes, comment).first?.readDirectly ?? 0
    }

    /// The direct reader's outcome in each chunking, each checked against libxml2's.
    @discardableResult
    static func directOutcomes(_ bytes: [UInt8], chunkSizes: [Int], _ comment: String = "") -> [Outcome] {
        chunkSizes.map { chunkSize in
            let reference = outcome(bytes, chunkSize: chunkSize, direct: false)
            let direct = outcome(bytes, chunkSize: chunkSize, direct: true)
            #expect(direct == reference, "chunk size \(chunkSize) \(comment)")
            #expect(reference.readDirectly == 0 && reference.startTagsReadDirectly == 0)
            return direct
        }
    }

    /// Empty elements of every kind the reader takes or declines, between elements libxml2 reads.
    static let cases: [String] = [
        #"<R a="1" b='2'/>"#,
        "<R   a = \"x\"\tb=\"y\"\n        c=\"z\" />",
        #"<R device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;" v="&amp;&quot;&apos;&#65;&#x42;&#x1F600;"/>"#,
        #"<R s="Simon’s Äpple 😀 ｗａｔｃｈ"/>"#,
        "<R v=\"a\tb\"/>",
        "<R v=\"a\nb\"/>",
        #"<R v="a&#9;b&#10;c&#13;"/>"#,
        #"<R a="1" a="2"/>"#,
        #"<R xmlns="urn:x" a="1"/>"#,
        #"<R xmlns:h="urn:h" h:a="1"/>"#,
        #"<h:R a="1"/>"#,
        #"<R a="1"b="2"/>"#,
        #"<R a="<"/>"#,
        #"<R a="&unknown;"/>"#,
        #"<R a="&#0;"/>"#,
        #"<R a="&#xFFFE;"/>"#,
        #"<R a="&#x110000;"/>"#,
        #"<R a="&#0000000000065;"/>"#,
        #"<R a="&"/>"#,
        #"<R a="x"/ >"#,
        #"<R a/>"#,
        #"<R-1.x_y a="1"/>"#,
        #"<R a="1" b=""/>"#,
        "<R a=\"\u{FFFD}\u{10FFFF}\"/>",
        #"<R/>"#,
        #"<R />"#,
    ]

    /// Elements with content whose start tags the reader takes or declines, and what can go wrong
    /// after a start tag it took: the stand-in it leaves must give libxml2's events and errors.
    static let elementsWithContent: [String] = [
        // An Apple record with metadata, as exports write it.
        "<Record type=\"HKQuantityTypeIdentifierHeartRate\" device=\"&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;\" value=\"72\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"1\"/>\n </Record>",
        #"<R a="1"></R>"#,
        #"<R>x</R>"#,
        "<R a=\"Äpple 😀\">\n  <C b=\"Simon’s\"/>\n  <C b=\"2\"><D/></C>\n </R>",
        #"<R a="1"><C/></R >"#,
        "<R\n   a=\"1\"\n   b=\"2\"\n><C/></R>",
        #"<R a="1">text &amp; more<!-- a comment --><?pi x?><![CDATA[<c>]]></R>"#,
        // Errors after the start tag, on its line and after it.
        #"<R a="Äpple 😀"></S>"#,
        #"<R a="Äpple 😀"><C x="1" x="2"/></R>"#,
        #"<R a="Äpple"> & </R>"#,
        "<R a=\"Äpple\">\n <C/>\n <C a=\"<\"/></R>",
        #"<R a="1"><C b="1"></R>"#,
        "<R\n   a=\"Äpple\"\n   b=\"2\"></S>",
        "<R\r\n a=\"1\"\r b=\"😀\"\r\n\t><C x=\"1\" x=\"2\"/></R>",
        // Start tags it declines.
        "<R a=\"1\" a=\"2\"><C/></R>",
        #"<R xmlns="urn:x"><C/></R>"#,
        "<R v=\"a\tb\"><C/></R>",
        "<R a=\"1\"\r b=\"2\"><C/></R>",
        #"<h:R a="1"><C/></h:R>"#,
    ]

    static func document(_ body: [String]) -> [UInt8] {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-03-05 09:00:00 +0100\"/>\n"
            + body.map { " <Workout n=\"1\">\n  \($0)\n </Workout>\n \($0)\n" }.joined() + "</HealthData>\n"
        return Array(text.utf8)
    }

    @Test("each kind of empty element, alone in a document: the same as libxml2", arguments: cases)
    func eachCaseReadsAsLibXML2ReadsIt(_ element: String) {
        Self.expectSame(Self.document([element]), chunkSizes: [1 << 20, 1, 5], element)
    }

    @Test("each kind of element with content: the same as libxml2", arguments: elementsWithContent)
    func eachElementWithContentReadsAsLibXML2ReadsIt(_ element: String) {
        Self.directOutcomes(Self.document([element]), chunkSizes: [1 << 20, 1, 5], element)
    }

    /// The start tags of well-formed elements are taken (the workout's and the case's, twice), the
    /// ones libxml2 must judge are not (the workout's alone is); an error after a taken start tag,
    /// or a document cut inside the content of one, ends with libxml2's error (a failed parse
    /// leaves no count to check).
    @Test func startTagsAreTakenWhenTheyCanBeReadExactly() {
        for (index, element) in Self.elementsWithContent.enumerated() {
            let whole = Self.directOutcomes(Self.document([element]), chunkSizes: [1 << 20], element)[0]
            switch index {
            case 0..<7:
                // Case 3 holds an element with content inside another.
                #expect(whole.startTagsReadDirectly == (index == 3 ? 5 : 3), "case \(index): \(element)")
                #expect(whole.error == nil, "case \(index): \(element)")
            case 7..<15:
                #expect(whole.error?.hasPrefix("malformed") == true || whole.error?.hasPrefix("truncated") == true)
            default:
                #expect(whole.startTagsReadDirectly == 1, "case \(index): \(element)")
            }
        }
        let record = Self.document([Self.elementsWithContent[0]])
        let cut = Array(record[..<(record.count - 40)])
        let truncated = Self.directOutcomes(cut, chunkSizes: [1 << 20, 3])
        #expect(truncated.allSatisfy { $0.error?.hasPrefix("truncated") == true })
    }

    @Test("the quirks export (real exports' quirks) reads the same in any chunking")
    func theQuirksExportReadsTheSame() {
        // Its empty elements are read directly, so the comparison is not between two libxml2 runs.
        #expect(Self.expectSame(XMLTestInput.quirks, chunkSizes: [1 << 20, 1, 13, 4096]) > 10)
    }

    /// The common shapes are taken (the export date, and the case twice: in a workout and at the
    /// top level); the ones libxml2 must judge are not (a document libxml2 refuses counts none).
    @Test func theReaderTakesWhatItCanReadExactly() {
        let taken = [0, 1, 2, 3, 6, 21, 22, 23, 24, 25]
        for (index, element) in Self.cases.enumerated() {
            let read = Self.expectSame(Self.document([element]), chunkSizes: [1 << 20], element)
            #expect(taken.contains(index) ? read == 3 : read <= 1, "case \(index): \(element)")
        }
    }

    @Test("bytes in invalid UTF-8, illegal characters and another declared encoding: the same outcome")
    func encodingsAndBadBytesReadTheSame() {
        let latin1 =
            Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><HealthData><R s=""#.utf8) + [0xC3, 0xA9]
            + Array(#""/></HealthData>"#.utf8)
        Self.expectSame(latin1)
        // libxml2 converts UTF-7 with iconv, and reads it differently in different pieces: both
        // ways must give it the same ones (a fuzzed input found the direct reading's first
        // piece ended at the root's start tag, the reference's at the end of the input).
        let utf7 =
            Array(
                "<?xml version=\"1.0\" encoding=\"UTF07\"?>\n<gpx v=\"1\">\n  <trk>\n    <name>Route \u{FF}\u{FF}</name>\n"
                    .utf8) + Array(#"<a x="1"><a x="1"></a></a></trk></gpx>"#.utf8)
        Self.expectSame(utf7)
        for bad: [UInt8] in [
            [0xC3], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xF4, 0x90, 0x80, 0x80], [0x01],
        ] {
            let bytes = Array(#"<HealthData><R s="a"#.utf8) + bad + Array(#"b"/><R s="c"/></HealthData>"#.utf8)
            Self.expectSame(bytes, "bytes \(bad)")
        }
    }

    /// Random damage to a document of every case: bytes flipped, dropped, doubled and replaced by
    /// XML's own punctuation; every outcome, error or not, must be libxml2's (seeds 36 to 39 were
    /// run 3,000 rounds each).
    @Test("damaged documents: the same events, warnings and errors as libxml2")
    func damagedDocumentsReadTheSame() {
        var random = SeededGenerator(seed: 36)
        // The well-formed elements with content too: start tags taken, then damaged around.
        let base = Self.document(Self.cases + Self.elementsWithContent.prefix(7))
        let punctuation = Array("<>/=\"'&;# :\txmlns&lt;&#x41;".utf8) + [0x0A, 0xC3, 0xA9, 0xFF]
        var differing = 0
        for round in 0..<3_000 {
            let bytes = ByteDamage.damaged(base, punctuation: punctuation, maximumEdits: 4, random: &random)
            let chunkSize = [1 << 20, 3, 64][round % 3]
            let direct = Self.outcome(bytes, chunkSize: chunkSize, direct: true)
            // Where libxml2 reports an error depends by a byte on how its input was split (the whole
            // document and 1-byte pieces can differ); the direct reader splits it at the elements it
            // takes, so its outcome must be one libxml2 gives for some split.
            let references = [chunkSize, 1, 3, 7, 64].lazy.map { Self.outcome(bytes, chunkSize: $0, direct: false) }
            let matched = references.contains(direct)
            if !matched { differing += 1 }
            #expect(
                matched, "round \(round): \(direct) vs \(references.first!): \(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(differing == 0)
    }
}
