import HealthETLTestSupport
import Testing

extension RealExportTests {
    /// `XMLBrokenInputTests`' checks on the real exports: the curated v14 export and the iOS 16
    /// one whose DTD `ExportQuirksFixture` copies.
    @Suite struct BrokenInput {
        @Test(
            "X3: the curated export cut at random offsets: truncated, with a position; earlier records delivered"
        )
        func truncatedAnywhere() throws {
            try XMLBrokenInputTests.expectCutAnywhereIsTruncated(
                XMLTestInput.realExport(XMLTestInput.curated), records: 28)
        }

        @Test(
            "X3: invalid UTF-8 in an attribute value is an encoding error at its line",
            arguments: XMLBrokenInputTests.invalidSequences)
        func invalidUTF8(_ garbage: [UInt8]) throws {
            try XMLBrokenInputTests.expectInvalidUTF8IsAnEncodingError(
                XMLTestInput.realExport(XMLTestInput.curated), garbage: garbage, in: "Health")
        }

        /// After a 218-line DTD the filter dropped: positions must be the original file's.
        @Test("X3: a mismatched tag is malformed, at the right line", arguments: [1, 1 << 20])
        func mismatchedTag(chunkSize: Int) throws {
            try XMLBrokenInputTests.expectMismatchedRecordEndIsMalformed(
                XMLTestInput.realExport(XMLTestInput.curated), chunkSize: chunkSize, line: 228,
                recordsStarted: 1)
        }

        @Test(
            "X4: the iOS 16 export with its malformed DTD parses fully, byte by byte too",
            arguments: [1, 1 << 20])
        func iOS16BrokenDTD(chunkSize: Int) throws {
            try XMLBrokenInputTests.expectBrokenDTDParsesFully(
                XMLTestInput.realExport(XMLTestInput.ios16), faults: ExportQuirksFixture.dtdFaults,
                chunkSize: chunkSize, topLevel: ["ActivitySummary": 10, "Record": 1, "Workout": 1])
        }

        @Test(
            "X4: raw control characters in values become spaces; the record survives; counted",
            arguments: [1, 1 << 20])
        func illegalControlCharacters(chunkSize: Int) throws {
            try XMLBrokenInputTests.expectControlCharacterBecomesASpace(
                XMLTestInput.realExport(XMLTestInput.ios16), in: "Phone", chunkSize: chunkSize, records: 1)
        }
    }
}
