import Testing

@testable import HealthETLCore

struct ContentIDTests {
    static let start = Instant(millisecondsSinceEpoch: 1_709_276_400_000)
    static let end = Instant(millisecondsSinceEpoch: 1_709_276_460_000)

    static func id(
        metric: String = "heart_rate", source: String = "Simon’s Apple Watch", start: Instant = start,
        end: Instant = end, value: String? = "72", unit: String? = "count/min"
    ) -> ContentID {
        ContentID(metric: metric, source: source, start: start, end: end, value: value, unit: unit)
    }

    /// Pinned values, computed independently of the Swift code with Python's hashlib over the
    /// documented byte layout `v1␟metric␟source␟startMs␟endMs␟value␟unit␟` (␟ = 0x1F, each field
    /// UTF-8, decimal milliseconds, an absent value or unit as the empty string), taking the first
    /// 16 bytes of the SHA-256 digest:
    ///
    ///     import hashlib
    ///     def cid(*f):
    ///         b = b''.join(x.encode() + b'\x1f' for x in ('v1',) + f)
    ///         return hashlib.sha256(b).digest()[:16].hex()
    ///     cid('heart_rate', 'Simon’s Apple Watch', '1709276400000', '1709276460000', '72', 'count/min')
    ///     cid('heart_rate', 'Simon’s Apple Watch', '1709276400000', '1709276460000', '72.0', 'count/min')
    ///     cid('step_count', 'iPhone', '-1000', '0', '', '')
    @Test func matchesSHA256OfTheDocumentedLayout() {
        #expect(Self.id().description == "5383c6a46440070c9d81e93f63469a21")
        #expect(Self.id(value: "72.0").description == "f8c6a37b98c470cbc0a79534ccad2ffb")
        let bare = ContentID(
            metric: "step_count", source: "iPhone", start: Instant(millisecondsSinceEpoch: -1_000),
            end: Instant(millisecondsSinceEpoch: 0), value: nil, unit: nil)
        #expect(bare.description == "17feec596e9fd6ca3513b0a88599a3cd")
    }

    /// Messages of one, two and several 64-byte blocks, and past the 256 bytes hashed in place
    /// (`IdentityFields` then hashes a heap copy), pinned the same way, with a source of `n` x:
    ///
    ///     cid('heart_rate', 'x' * n, '1709276400000', '1709276460000', '72', 'count/min')
    @Test(arguments: [
        (9, "5e5ba1ae09f2cfc5589011fa181c06e5"),  // 65 bytes
        (17, "7917eccf4ab73bd6ff92fabe439efa88"),  // 73 bytes
        (185, "180da92af0404970faab2317c1b1a7e0"),  // 241 bytes
        (250, "d6f01b1d6af2d4c90fd54cfb08e598c9"),  // 306 bytes
        (600, "2589cf2ecc692bfed3255907c70e4b78"),  // 656 bytes
    ])
    func matchesSHA256AtEveryLength(sourceLength: Int, expected: String) {
        #expect(Self.id(source: String(repeating: "x", count: sourceLength)).description == expected)
    }

    @Test func sameFieldsGiveTheSameID() {
        #expect(Self.id() == Self.id())
        #expect(Self.id(value: nil, unit: nil) == Self.id(value: nil, unit: nil))
    }

    @Test func everyFieldChangesTheID() {
        let base = Self.id()
        let variants: [(String, ContentID)] = [
            ("metric", Self.id(metric: "resting_heart_rate")),
            ("source", Self.id(source: "iPhone")),
            ("start", Self.id(start: Self.start.adding(seconds: -1))),
            ("start by 1 ms", Self.id(start: Instant(millisecondsSinceEpoch: 1_709_276_400_001))),
            ("end", Self.id(end: Self.end.adding(seconds: 1))),
            ("value", Self.id(value: "73")),
            ("value spelling", Self.id(value: "72.0")),
            ("value absent", Self.id(value: nil)),
            ("unit", Self.id(unit: "/min")),
            ("unit absent", Self.id(unit: nil)),
            // the separator keeps fields apart: moving text between fields changes the id
            ("field boundary", Self.id(value: "72c", unit: "ount/min")),
        ]
        for (name, variant) in variants {
            #expect(variant != base, "changing \(name) must change the id")
        }
        #expect(Set(variants.map(\.1)).count == variants.count, "every variant differs from the others")
    }

    @Test func hexRoundTrip() throws {
        let id = Self.id()
        let hex = id.description
        #expect(hex.count == 32)
        #expect(hex.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(ContentID(hex: hex) == id)
        #expect(ContentID(hex: hex.uppercased()) == id)
        let small = ContentID(high: 1, low: 0xabc)
        #expect(small.description == "0000000000000001" + "0000000000000abc")
        #expect(ContentID(hex: small.description) == small)
    }

    @Test(arguments: [
        "",
        "5383c6a46440070c9d81e93f63469a2",  // 31 digits
        "5383c6a46440070c9d81e93f63469a211",  // 33 digits
        "5383c6a46440070c9d81e93f63469a2g",  // not hex
        "5383c6a46440070c 9d81e93f63469a21",
        "+383c6a46440070c9d81e93f63469a21",  // a sign is not a hexadecimal digit
        "5383c6a46440070c+d81e93f63469a21",
        "-000000000000000-000000000000000",
    ])
    func malformedHexIsRejected(_ text: String) {
        #expect(ContentID(hex: text) == nil)
    }

    /// Every byte in a digit's place, in either half: only the 22 hexadecimal digits are read,
    /// each as its value.
    @Test func everyByteIsJudgedAsADigitOrRefused() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        for byte in UInt8.min...UInt8.max {
            for place in [3, 20] {
                var text = Array("00000000000000000000000000000000".utf8)
                text[place] = byte
                let parsed = ContentID(hex: String(decoding: text, as: UTF8.self))
                guard let index = digits.firstIndex(of: byte) else {
                    // A byte that is not ASCII decodes to more than one byte or U+FFFD: refused either way.
                    #expect(parsed == nil, "byte \(byte)")
                    continue
                }
                let value = UInt64(index < 16 ? index : index - 6)
                let expected =
                    place < 16
                    ? ContentID(high: value << (4 * UInt64(15 - place)), low: 0)
                    : ContentID(high: 0, low: value << (4 * UInt64(31 - place)))
                #expect(parsed == expected, "byte \(byte) at \(place)")
            }
        }
    }

    @Test func bytesRoundTripBigEndian() {
        let id = ContentID(high: 0x0102_0304_0506_0708, low: 0x090a_0b0c_0d0e_0f10)
        #expect(id.bytes == Array(1...16))
        #expect(ContentID(digest: id.bytes) == id)
        let hashed = Self.id()
        #expect(ContentID(digest: hashed.bytes) == hashed)
        // only the first 16 bytes of a longer digest count
        #expect(ContentID(digest: hashed.bytes + [0xff, 0xee]) == hashed)
        // bytes and hex agree: 0x53 0x83 … from the pinned value above
        #expect(Array(hashed.bytes.prefix(2)) == [0x53, 0x83])
        #expect(hashed.bytes.last == 0x21)
    }

    @Test func orderingIsByHighThenLow() {
        #expect(ContentID(high: 1, low: .max) < ContentID(high: 2, low: 0))
        #expect(ContentID(high: 2, low: 1) < ContentID(high: 2, low: 2))
        #expect(!(ContentID(high: 2, low: 2) < ContentID(high: 2, low: 2)))
    }
}
