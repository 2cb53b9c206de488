import Testing

extension RealExportTests {
    /// `XMLStreamParserTests`' checks on the real exports.
    @Suite struct StreamParsing {
        struct RealExport: Sendable, CustomTestStringConvertible {
            var name: String
            var topLevel: [String: Int]
            var elements: Int
            var testDescription: String { name }
        }

        // Expected counts come from Python, independently of this parser: the DOCTYPE cut out with
        // re.sub(rb'<!DOCTYPE.*?\]\s*>', b'', data, flags=re.S), then xml.etree.ElementTree:
        // collections.Counter(child.tag for child in root) and sum(1 for _ in root.iter()).
        // Cross-check with grep: curated has 28 `<Record ` lines, 2 of them inside its one
        // <Correlation>, so 26 top-level; `grep -c '<Workout '` gives 2, 1 and 1.
        static let realExports: [RealExport] = [
            RealExport(
                name: XMLTestInput.curated,
                topLevel: [
                    "ExportDate": 1, "Me": 1, "Record": 26, "Correlation": 1, "Workout": 2,
                    "ActivitySummary": 3,
                ],
                elements: 72),
            RealExport(
                name: XMLTestInput.excerpts,
                topLevel: [
                    "ExportDate": 1, "Me": 1, "Record": 5, "ClinicalRecord": 6, "Workout": 1,
                    "ActivitySummary": 17,
                ],
                elements: 56),
            RealExport(
                name: XMLTestInput.ios16, topLevel: ["ActivitySummary": 10, "Record": 1, "Workout": 1],
                elements: 37),
        ]

        @Test("real exports: top-level Records and Workouts as counted independently", arguments: realExports)
        func realExportCounts(_ expected: RealExport) throws {
            try XMLStreamParserTests.expectCounts(
                XMLTestInput.realExport(expected.name), topLevel: expected.topLevel,
                elements: expected.elements)
        }

        @Test("1-byte and odd-sized chunks give the same events as one chunk", arguments: realExports)
        func chunkingDoesNotMatter(_ export: RealExport) throws {
            try XMLStreamParserTests.expectChunkingDoesNotMatter(
                XMLTestInput.realExport(export.name), elements: export.elements)
        }

        @Test("start tags read without libxml2: libxml2's own outcome", arguments: realExports)
        func startTagsReadAsLibXML2ReadsThem(_ export: RealExport) throws {
            let outcomes = EmptyElementReaderTests.directOutcomes(
                try XMLTestInput.realExport(export.name), chunkSizes: [1 << 20, 1, 7], export.name)
            // Every real export has elements with content (records with metadata, workouts), read
            // whole in one piece (a tag split between two feeds goes to libxml2).
            #expect(outcomes[0].error == nil && outcomes[0].startTagsReadDirectly > 0)
        }

        @Test("consumedOffset in endElement is just past the element, in original-file offsets")
        func consumedOffsetIsACursor() throws {
            try XMLStreamParserTests.expectConsumedOffsetIsACursor(
                XMLTestInput.realExport(XMLTestInput.curated), records: 28)
        }
    }
}
