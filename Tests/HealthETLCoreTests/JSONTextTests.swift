import Foundation
import HealthETLCore
import Testing

/// The one JSON string escaper: RFC 8259's escapes, byte for byte, whoever calls it.
@Suite struct JSONTextTests {
    @Test func escapesQuotesBackslashesAndControlCharacters() {
        #expect(JSONText.quoted("plain, née €") == "\"plain, née €\"")
        #expect(JSONText.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONText.quoted("\n\r\t") == #""\n\r\t""#)
        #expect(JSONText.quoted("\u{0}\u{1F}\u{0B}") == #""\u0000\u001f\u000b""#)
    }

    @Test func bytesAndStringsAgreeAndDecodeBack() throws {
        let text = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }) + "Anna’s ⌚️"
        var bytes: [UInt8] = []
        JSONText.appendQuoted(text, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == JSONText.quoted(text))
        #expect(try JSONDecoder().decode(String.self, from: Data(bytes)) == text)
    }

    /// Series points as `[[ms, value], …]`: Swift's shortest spelling of each value, and JSON a
    /// decoder reads back to the same numbers.
    @Test func pointsAreOneJSONArrayOfPairs() throws {
        #expect(JSONText.points([]) == "[]")
        let points = [
            SeriesPoint(instant: Instant(millisecondsSinceEpoch: 1_709_276_400_000), value: 72),
            SeriesPoint(instant: Instant(millisecondsSinceEpoch: -1_000), value: 0.1),
            SeriesPoint(instant: Instant(millisecondsSinceEpoch: 0), value: -1e-7),
            SeriesPoint(instant: Instant(millisecondsSinceEpoch: 1), value: 123_456_789.125),
        ]
        let text = JSONText.points(points)
        #expect(text == "[[1709276400000,72.0],[-1000,0.1],[0,-1e-07],[1,123456789.125]]")
        let decoded = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[NSNumber]])
        #expect(decoded.map { $0[0].int64Value } == points.map(\.instant.millisecondsSinceEpoch))
        #expect(decoded.map { $0[1].doubleValue } == points.map(\.value))
    }
}
