import Foundation
import HealthETLTestSupport
import Testing

@testable import HealthAutoExport

/// The streaming JSON reader: the same tokens whatever the chunking, the grammar checked, and
/// hostile texts refused by their limits with the byte where it happened.
@Suite struct JSONTokenizerTests {
    static let sample = #"""
        {"data": {"metrics": [{"name": "step_count", "units": "count",
          "data": [{"qty": 7369.14, "date": "2024-02-06 14:30:00 -0800", "source": "Watch|iPhone"},
                   {"qty": -1.5e3, "ok": true, "no": false, "none": null, "esc": "a\"b\\c\/d\n\u00e9\ud83d\ude00"}]}]}}
        """#

    static func tokens(_ text: String, chunk: Int, limits: JSONLimits = JSONLimits()) throws -> [JSONToken] {
        var tokenizer = JSONTokenizer(limits: limits)
        var tokens: [JSONToken] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            try tokenizer.feed(Array(bytes[start..<min(start + chunk, bytes.count)])) { tokens.append($0) }
            start += chunk
        }
        try tokenizer.finish { tokens.append($0) }
        return tokens
    }

    @Test func everyChunkingGivesTheSameTokens() throws {
        let whole = try Self.tokens(Self.sample, chunk: 1 << 20)
        for chunk in [1, 2, 3, 7, 64] {
            #expect(try Self.tokens(Self.sample, chunk: chunk) == whole, "chunks of \(chunk)")
        }
        #expect(whole.first == .objectStart)
        #expect(whole.contains(.key("qty")))
        #expect(whole.contains(.number("7369.14")))
        #expect(whole.contains(.number("-1.5e3")))
        #expect(whole.contains(.string("Watch|iPhone")))
        #expect(whole.contains(.bool(true)) && whole.contains(.bool(false)) && whole.contains(.null))
        #expect(whole.contains(.string("a\"b\\c/d\né😀")))
        #expect(whole.filter { $0 == .objectEnd }.count == whole.filter { $0 == .objectStart }.count)
    }

    @Test func aNumberAtTheVeryEndCompletes() throws {
        #expect(try Self.tokens("42", chunk: 1) == [.number("42")])
        #expect(
            try Self.tokens(" [0, -0.5, 1E+2] ", chunk: 3) == [
                .arrayStart, .number("0"), .number("-0.5"), .number("1E+2"), .arrayEnd,
            ])
    }

    @Test(arguments: [
        ("{\"a\": 01}", JSONStreamError.Kind.syntax),
        ("{\"a\": 1.}", .syntax),
        ("{\"a\" 1}", .syntax),
        ("{\"a\": tru}", .syntax),
        ("[1, 2,]", .syntax),
        ("{\"a\": \"\u{01}\"}", .syntax),
        ("{\"a\": \"\\x\"}", .syntax),
        ("[1] 2", .syntax),
        ("", .truncated),
        ("{\"data\": [1, 2", .truncated),
        ("\"unterminated", .truncated),
    ])
    func malformedTextIsRefusedWithItsKind(_ text: String, _ kind: JSONStreamError.Kind) throws {
        #expect {
            _ = try Self.tokens(text, chunk: 4)
        } throws: { error in
            (error as? JSONStreamError)?.kind == kind
        }
    }

    @Test func hostileSizesAreRefusedByTheirLimits() throws {
        var limits = JSONLimits()
        limits.stringBytes = 1000
        let long = "{\"name\": \"" + String(repeating: "x", count: 5000) + "\"}"
        let refusal = #expect(throws: JSONStreamError.self) { try Self.tokens(long, chunk: 512, limits: limits) }
        #expect(refusal?.kind == .limit)
        // `{"name": "` is 10 bytes: the string is refused at its 1,001st byte.
        let offset: Int64? = refusal?.byteOffset
        #expect(offset == Int64(1010))
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONStreamError.self) { try Self.tokens(deep, chunk: 7) }
        let wide = "[" + String(repeating: "9", count: 500) + "]"
        #expect(throws: JSONStreamError.self) { try Self.tokens(wide, chunk: 7) }
    }

    @Test func aLoneSurrogateBecomesTheReplacementCharacter() throws {
        #expect(
            try Self.tokens(#"["\ud800x", "\udc00"]"#, chunk: 2) == [
                .arrayStart, .string("\u{FFFD}x"), .string("\u{FFFD}"), .arrayEnd,
            ])
    }
}
