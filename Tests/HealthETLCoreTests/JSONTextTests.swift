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
}
