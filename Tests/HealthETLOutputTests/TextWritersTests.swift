import Foundation
import HealthETLCore
import Testing

@testable import HealthETLOutput

/// The byte-level writers every export format is built from.
@Suite struct TextWritersTests {
    func text(_ body: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        body(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [
        (72.0, "72"), (0.1, "0.1"), (-3.0, "-3"), (1e-05, "1e-05"), (1234567.25, "1234567.25"), (0.0, "0"),
        (1e20, "1e+20"),
    ])
    func numbersAreTheShortestTextThatReadsBack(value: Double, expected: String) {
        let written = text { ByteText.append(value, to: &$0) }
        #expect(written == expected)
        #expect(Double(written) == value)
    }

    @Test func integersCoverTheWholeRange() {
        #expect(text { ByteText.append(Int64.min, to: &$0) } == "-9223372036854775808")
        #expect(text { ByteText.append(Int64.max, to: &$0) } == "9223372036854775807")
        #expect(text { ByteText.append(Int64(0), to: &$0) } == "0")
    }

    @Test func timestampsCarryTheirOffsetAndMillisecondsOnlyWhenPresent() {
        // One writer throughout: its remembered day must never leak into another day's text.
        var time = TimeText()
        let instant = Instant(millisecondsSinceEpoch: 1_709_278_200_000)  // 2024-03-01T07:30:00Z
        #expect(text { time.appendISO8601(instant, offset: 3600, to: &$0) } == "2024-03-01T08:30:00+01:00")
        #expect(text { time.appendISO8601(instant, offset: -19800, to: &$0) } == "2024-03-01T02:00:00-05:30")
        #expect(text { time.appendISO8601(instant, offset: nil, to: &$0) } == "2024-03-01T07:30:00Z")
        let fraction = Instant(millisecondsSinceEpoch: 1_709_278_200_045)
        #expect(text { time.appendISO8601(fraction, offset: 0, to: &$0) } == "2024-03-01T07:30:00.045Z")
        #expect(text { time.appendLocal(instant, offset: 32400, to: &$0) } == "2024-03-01 16:30:00")
        // Before 1970: floor division, not truncation.
        let early = Instant(millisecondsSinceEpoch: -1)
        #expect(text { time.appendISO8601(early, offset: 0, to: &$0) } == "1969-12-31T23:59:59.999Z")
        #expect(text { time.appendISO8601(instant, offset: 0, to: &$0) } == "2024-03-01T07:30:00Z")
        #expect(text { TimeText.appendDay(CivilDate(year: 987, month: 6, day: 5)!, to: &$0) } == "0987-06-05")
    }

    @Test func csvQuotesOnlyWhatNeedsIt() {
        #expect(text { CSVText.appendField("Apple Watch", formulas: .neutralized, to: &$0) } == "Apple Watch")
        #expect(
            text { CSVText.appendField("name:Watch, model:6", formulas: .neutralized, to: &$0) }
                == "\"name:Watch, model:6\"")
        #expect(text { CSVText.appendField("say \"hi\"", formulas: .neutralized, to: &$0) } == "\"say \"\"hi\"\"\"")
        #expect(text { CSVText.appendField("two\nlines", formulas: .neutralized, to: &$0) } == "\"two\nlines\"")
        #expect(text { CSVText.appendRow(["a", "b,c"], to: &$0) } == "a,\"b,c\"\r\n")
    }

    @Test(arguments: ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"])
    func csvCellsThatSpreadsheetsRunAsFormulasAreText(_ cell: String) {
        let neutralized = text { CSVText.appendField(cell, formulas: .neutralized, to: &$0) }
        let quoted = cell.replacingOccurrences(of: "\"", with: "\"\"")
        #expect(neutralized == "\"'" + quoted + "\"", "OWASP: a leading ' inside the quotes")
        let raw = text { CSVText.appendField(cell, formulas: .raw, to: &$0) }
        #expect(!raw.hasPrefix("\"'"))
        #expect(text { CSVText.appendField("Watch =1", formulas: .neutralized, to: &$0) } == "Watch =1")
    }

    @Test func idsAsHexAndAsUUIDs() {
        let id = ContentID(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
        #expect(text { HexText.append(id, to: &$0) } == "0123456789abcdeffedcba9876543210")
        #expect(text { HexText.appendUUID(id, to: &$0) } == "01234567-89ab-cdef-fedc-ba9876543210")
        #expect(text { HexText.append(id, to: &$0) } == id.description)
    }

    @Test func htmlEscapesAndFigures() {
        #expect(
            HTMLText.escaped("<b>\"Tom\" & 'Jerry'</b>") == "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;")
        #expect(HTMLText.figure(1_234_567.4) == "1,234,567")
        #expect(HTMLText.figure(76.45, decimals: 1) == "76.5")
        #expect(HTMLText.figure(-1234.5, decimals: 2) == "-1,234.50")
        #expect(HTMLText.figure(0.04, decimals: 1) == "0.0")
        #expect(HTMLText.hours(26_280) == "7 h 18 min")
        #expect(HTMLText.hours(3_900) == "1 h 05 min")
    }

    /// A workout's duration as a source wrote it (HAE's `duration`, a Health Connect span) may be
    /// any Double: a figure beyond Int64 is written as Swift writes it, never trapped on.
    @Test func figuresBeyondInt64() {
        #expect(HTMLText.figure(1e30) == "1e+30")
        #expect(HTMLText.figure(-9.3e18) == "-9.3e+18")
        #expect(HTMLText.figure(1e17, decimals: 2) == "1e+17")
        #expect(HTMLText.figure(.infinity) == "–")
        #expect(HTMLText.hours(1e300) == "–")
        #expect(HTMLText.hours(.infinity) == "–")
        #expect(HTMLText.hours(.nan) == "–")
    }
}
