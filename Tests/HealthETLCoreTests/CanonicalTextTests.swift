import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

/// One name, one form: composed and decomposed spellings, and a name with a NUL in it, become the
/// same sample id and the same stored name.
@Suite struct CanonicalTextTests {
    let normalizer = Normalizer(catalog: try! MetricCatalog.bundled(), now: RecordFixtures.now)

    static let composed = "Zo\u{00EB}’s Apple Watch"
    static let decomposed = "Zoe\u{0308}’s Apple Watch"

    func sample(source: String) throws -> Sample {
        try #require(normalizer.sample(from: RecordFixtures.record(source: source)))
    }

    @Test func composedAndDecomposedSourceNamesAreOneSource() throws {
        #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8))
        let fromComposed = try sample(source: Self.composed)
        let fromDecomposed = try sample(source: Self.decomposed)
        #expect(fromComposed.id == fromDecomposed.id)
        #expect(Array(fromDecomposed.sourceName.utf8) == Array(Self.composed.utf8))
    }

    @Test func aNULInASourceNameIsDropped() throws {
        let sample = try sample(source: "Simon’s\u{0} iPhone")
        #expect(Array(sample.sourceName.utf8) == Array("Simon’s iPhone".utf8))
        #expect(sample.id == (try self.sample(source: "Simon’s iPhone")).id)
    }

    /// The fast path's "already canonical" verdict and the slow path agree with Foundation's NFC.
    @Test(arguments: [
        "Simon’s Apple Watch", "Health Mate", "\u{00C5}", "A\u{030A}", "\u{2126}hm", "\u{0419}", "\u{0418}\u{0306}",
        "\u{1100}\u{1161}", "中文 😀", "Ωmega",
    ])
    func canonicalFormIsNFC(_ name: String) {
        #expect(Array(CanonicalText.of(name).utf8) == Array(name.precomposedStringWithCanonicalMapping.utf8))
    }
}
