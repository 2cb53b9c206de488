import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// A source name arriving composed in one run and decomposed in another (or with a NUL) is one
/// row in `sources`, stored in NFC.
@Suite struct SourceNameFormTests {
    let directory = TemporaryDirectory()

    func commit(_ index: Int, source: String, cursor: Int64) throws {
        // A fresh store each time: the names are looked up in SQLite, not in the process's cache.
        let store = try Store(
            directory: StoreDirectory(path: directory.child("store")), clock: .fixed(RecordFixtures.now))
        var sample = RecordFixtures.sample(index: index)
        sample.sourceName = source
        try store.commit(
            CommitBatch(stream: "test:stream", samples: [LanedSample(sample, lane: .cold)], cursors: [.cold: cursor]))
    }

    @Test func composedDecomposedAndNULSpellingsAreOneSource() throws {
        try commit(0, source: "Zo\u{00EB}’s Apple Watch", cursor: 1)
        try commit(1, source: "Zoe\u{0308}’s Apple Watch", cursor: 2)
        try commit(2, source: "Zo\u{00EB}’s\u{0} Apple Watch", cursor: 3)

        let store = try Store(directory: StoreDirectory(path: directory.child("store")))
        #expect(try store.connection.scalar("SELECT COUNT(*) FROM sources") == 1)
        let stored = try store.connection.prepare("SELECT hex(name) FROM sources")
        let hex = try stored.firstRow { $0.text(0) }
        #expect(hex == Array("Zo\u{00EB}’s Apple Watch".utf8).map { String(format: "%02X", $0) }.joined())
    }

    /// Other text is stored as given, NULs included, and read back whole: never cut short on the
    /// way in by one statement and on the way out by another.
    @Test(arguments: ["72\u{0}", "a\u{0}b", "\u{0}"])
    func textWithANULReadsBackAsItWasStored(_ text: String) throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")))
        let select = try store.connection.prepare("SELECT ?1, length(CAST(?1 AS BLOB))")
        try select.bind(.text(text))
        let (read, bytes) = try #require(try select.firstRow { ($0.text(0), $0.int64(1)) })
        #expect(read.map { Array($0.utf8) } == Array(text.utf8))
        #expect(bytes == Int64(text.utf8.count))
    }
}
