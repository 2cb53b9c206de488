import Foundation
import HealthETLCore
import HealthETLTestSupport
import HealthETLWire
import Testing

/// The direct parser reads what `JSONDecoder` reads, as it reads it, and gives up on the rest.
@Suite struct WireBatchParserTests {
    /// `JSONDecoder`'s reading of a body: the reference the collector fell back on before.
    static func reference(_ body: [UInt8]) -> WireBatch? {
        try? JSONDecoder().decode(WireBatch.self, from: Data(body))
    }

    static let batch = WireBatch(
        batchID: "b-1",
        samples: [
            WireSample(
                id: "0123456789abcdef0123456789abcdef", metric: "heart_rate", source: "Anna’s \"Watch\"\\\n\t\u{1}/é",
                sourceVersion: "10.1", device: "<<HKDevice: 0x1>>, name:Apple Watch", start: "2026-01-01T00:00:00.000Z",
                end: "2026-01-01T00:00:00.000Z", utcOffsetSeconds: -28_800, timeZone: "America/Los_Angeles",
                value: 61.25, userEntered: true, flags: ["out_of_plausible_range", "future_dated"]),
            WireSample(
                id: "fedcba9876543210fedcba9876543210", metric: "sleep_analysis", source: "Watch",
                start: "2026-01-01T00:00:00Z", end: "2026-01-01T01:00:00Z", category: "asleep_core",
                restoresDeletionAt: "2026-01-03T00:00:00Z"),
            WireSample(
                id: "00000000000000000000000000000001", metric: "step_count", source: "Phone",
                start: "2026-01-01T00:00:00Z", end: "2026-01-01T00:01:00Z", utcOffsetSeconds: 0, value: 1e-7,
                userEntered: false, flags: []),
            WireSample(
                id: "00000000000000000000000000000004", metric: "step_count", source: "Phone",
                start: "2026-01-01T00:01:00Z", end: "2026-01-01T00:02:00Z", value: -0.0),
        ],
        deletions: [
            WireDeletion(id: "00000000000000000000000000000002", metric: "step_count", start: "2026-01-01T00:00:00Z"),
            WireDeletion(
                id: "00000000000000000000000000000003", metric: "step_count", start: "2026-01-01T00:00:00Z",
                deletedAt: "2026-01-02T00:00:00Z"),
        ])

    @Test func itReadsWhatTheClientsWrite() throws {
        let body = Self.batch.jsonBytes()
        let parsed = try #require(WireBatchParser.parse(body))
        #expect(parsed == Self.batch)
        #expect(parsed == Self.reference(body))
        let empty = WireBatch(batchID: "e", samples: [], deletions: [])
        #expect(WireBatchParser.parse(empty.jsonBytes()) == empty)
    }

    /// Bodies written by hand: other key orders, spacing, nulls, escapes and numbers read the same.
    static let agreeing: [String] = [
        #" { "samples" : [ ] , "deletions":[],"batch_id":"x" } "#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":null,"device":null,"flags":null}]}"#,
        #"{"batch_id":"\u0041\n\"\/\\\b\f\r\t\u00e9\u20ac","deletions":[],"samples":[]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":-12.5e-3,"utc_offset_s":-0}]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":1E+2,"utc_offset_s":50400}]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":0.1000000000000000055511151231257827}]}"#,
        #"{"batch_id":"x","deletions":[{"id":"i","metric":"m","start":"s","deleted_at":null}],"samples":[]}"#,
        "{\"batch_id\":\"caf\u{E9} \u{1F600}\",\"deletions\":[],\"samples\":[]}\n",
    ]

    /// Numbers at a double's small end: zero spelled with an exponent, and a subnormal.
    @Test(arguments: ["0e-807", "0.000e-400", "1e-320", "-2.5e-324", "0e0", "0e10", "0E07", "-0e1", "0e+1", "0.0e1"])
    func tinyNumbersAreReadAsTheReferenceReadsThem(_ number: String) throws {
        let body = Array(
            #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":\#(number)}]}"#
                .utf8)
        let reference = try #require(Self.reference(body), "the reference decoder refused \(number)")
        #expect(WireBatchParser.parse(body) == reference)
    }

    @Test(arguments: agreeing)
    func itReadsHandWrittenBodiesAsTheReferenceDoes(_ text: String) throws {
        let body = Array(text.utf8)
        let reference = try #require(Self.reference(body), "the reference decoder refused \(text)")
        #expect(WireBatchParser.parse(body) == reference)
    }

    /// Bodies the parser leaves to the reference decoder: some it refuses, some it takes.
    static let declined: [String] = [
        #"{"batch_id":"x","deletions":[],"samples":[],"extra":1}"#,
        #"{"batch_id":"x","batch_id":"y","deletions":[],"samples":[]}"#,
        #"{"b\u0061tch_id":"x","deletions":[],"samples":[]}"#,
        #"{"batch_id":"\ud83d\ude00","deletions":[],"samples":[]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","utc_offset_s":3600.0}]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":1e999}]}"#,
        // Too small for a double: JSONDecoder refuses it rather than read 0 (a fuzzer's find).
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":1e-807}]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":01}]}"#,
        // Valid JSON that JSONDecoder refuses (a fuzzer's find): zero, an exponent of one digit from 1 to 9.
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":0e7}]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":0E1}]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":null,"start":"s"}]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","start":"s"}]}"#,
        #"{"batch_id":"x","deletions":[],"samples":[],}"#,
        #"{"batch_id":"x","deletions":[],"samples":[]} {}"#,
        #"[{"batch_id":"x","deletions":[],"samples":[]}]"#,
        "{\"batch_id\":\"a\tb\",\"deletions\":[],\"samples\":[]}",
    ]

    /// `0e1` to `0e9` are valid JSON that JSONDecoder refuses; the parser leaves them to it, so a
    /// body holding one is refused as before. (When Foundation reads them, the parser may too.)
    @Test(arguments: 1...9)
    func zeroWithAOneDigitExponentIsLeftToTheReference(_ exponent: Int) {
        for spelling in ["0e\(exponent)", "0E\(exponent)"] {
            let body = Array(
                #"{"batch_id":"x","deletions":[],"samples":[{"end":"e","id":"i","metric":"m","source":"s","start":"s","value":\#(spelling)}]}"#
                    .utf8)
            #expect(Self.reference(body) == nil, "JSONDecoder reads \(spelling) now")
            #expect(WireBatchParser.parse(body) == nil)
        }
    }

    @Test(arguments: declined)
    func itLeavesOtherBodiesToTheReference(_ text: String) {
        #expect(WireBatchParser.parse(Array(text.utf8)) == nil)
    }

    /// Random damage to real bodies: whenever the parser reads one, the reference reads the same
    /// batch. Bytes are flipped, dropped, doubled and replaced by JSON's own punctuation.
    @Test func itNeverReadsABodyDifferentlyFromTheReference() throws {
        var random = SeededGenerator(seed: 19)
        let bodies = [Self.batch.jsonBytes(), Self.generated(samples: 40, random: &random).jsonBytes()]
        let punctuation = Array(#"{}[]:,"\.-+eE0123456789 nulltruefalse"#.utf8)
        var parsed = 0
        var agreedOnRefusal = 0
        for round in 0..<4_000 {
            let body = ByteDamage.damaged(
                bodies[round % bodies.count], punctuation: punctuation, maximumEdits: 3, random: &random)
            let reference = Self.reference(body)
            if let direct = WireBatchParser.parse(body) {
                parsed += 1
                #expect(direct == reference, "round \(round): \(String(decoding: body, as: UTF8.self))")
            } else if reference == nil {
                agreedOnRefusal += 1
            }
        }
        // Both kinds of outcome happened, so the comparison was exercised.
        #expect(parsed > 100)
        #expect(agreedOnRefusal > 1_000)
    }

    /// What the uploaders write is found canonical, so the collector hashes the body as it came.
    @Test func theWritersOwnBodiesAreCanonical() throws {
        var random = SeededGenerator(seed: 7)
        for batch in [
            Self.generated(samples: 200, random: &random), WireBatch(batchID: "e", samples: [], deletions: []),
        ] {
            let read = try #require(WireBatchParser.read(batch.jsonBytes()))
            #expect(read.isCanonical)
            #expect(read.batch == batch)
        }
    }

    /// A body judged canonical is byte for byte the canonical JSON of the batch it reads as (its
    /// digest stands for the batch's); spacing, other key orders, nulls, escapes and other
    /// spellings of a number are not judged canonical.
    @Test func onlyTheCanonicalFormIsJudgedCanonical() throws {
        for text in Self.agreeing {
            #expect(WireBatchParser.read(Array(text.utf8))?.isCanonical == false, "\(text)")
        }
        var random = SeededGenerator(seed: 23)
        let body = Self.generated(samples: 40, random: &random).jsonBytes()
        var judgedCanonical = 0
        for round in 0..<4_000 {
            var variant = body
            let at = Int(random.next() % UInt64(variant.count))
            switch random.next() % 3 {
            case 0: variant[at] = UInt8(ascii: "0") + UInt8(random.next() % 10)
            case 1: variant.insert(UInt8(ascii: " "), at: at)
            default: variant.remove(at: at)
            }
            guard let read = WireBatchParser.read(variant), read.isCanonical else { continue }
            judgedCanonical += 1
            #expect(read.batch.jsonBytes() == variant, "round \(round)")
        }
        #expect(judgedCanonical > 100)
    }

    /// A batch of many samples whose strings and numbers vary like real ones.
    static func generated(samples count: Int, random: inout SeededGenerator) -> WireBatch {
        let metrics = ["heart_rate", "step_count", "body_mass", "sleep_analysis"]
        let samples = (0..<count).map { index in
            let metric = metrics[Int(random.next() % 4)]
            let number = Double(Int64(random.next() % 2_000_000) - 1_000_000) / 997.0
            return WireSample(
                id: String(format: "%032llx", random.next()), metric: metric,
                source: index % 7 == 0 ? "Ä\u{1F600}" : "Watch",
                device: index % 3 == 0 ? "dev \(index % 5)" : nil, start: "2026-01-01T00:00:\(10 + index % 50)Z",
                end: "2026-01-01T00:01:00Z", utcOffsetSeconds: index % 2 == 0 ? -3600 * (index % 14) : nil,
                value: metric == "sleep_analysis" ? nil : number,
                category: metric == "sleep_analysis" ? "asleep_rem" : nil,
                userEntered: index % 5 == 0 ? true : nil, flags: index % 11 == 0 ? ["future_dated"] : nil)
        }
        return WireBatch(batchID: "generated", samples: samples, deletions: [])
    }
}
