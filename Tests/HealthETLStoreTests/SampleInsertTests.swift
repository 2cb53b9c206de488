import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// Samples are inserted `Store.samplesPerInsert` to a statement when no tombstone can keep one
/// out, and one at a time otherwise. Both ways must store the same rows with the same outcomes:
/// the reference here is the same samples committed one per batch, which always go one at a time.
@Suite struct SampleInsertTests {
    let directory = TemporaryDirectory()

    func openStore(_ name: String) throws -> Store {
        try Store(directory: StoreDirectory(path: directory.child(name)), clock: .fixed(RecordFixtures.now))
    }

    /// Every column of every stored sample but its row id, in row-id order, and the series.
    func rows(_ store: Store) throws -> [String] {
        let statement = try store.connection.prepare(
            """
            SELECT hex(s.id), m.name, src.name, s.source_version, d.description, s.start_ms, s.end_ms,
                s.utc_offset_s, s.value, s.category, s.value_text, s.unit_text, s.flags, s.lane, s.metadata,
                s.snapshot_ms, s.restores_ms, ss.points
            FROM samples s JOIN metrics m ON m.id = s.metric_id JOIN sources src ON src.id = s.source_id
                LEFT JOIN devices d ON d.id = s.device_id LEFT JOIN sample_series ss ON ss.sample_rowid = s.rowid
            ORDER BY s.rowid
            """)
        var rows: [String] = []
        while try statement.step() {
            rows.append(
                (0..<18).map { statement.isNull($0) ? "NULL" : statement.text($0) ?? "" }.joined(separator: "|"))
        }
        return rows
    }

    func dirtyKeys(_ store: Store) throws -> [String] {
        let statement = try store.connection.prepare(
            "SELECT m.name, k.day FROM dirty_keys k JOIN metrics m ON m.id = k.metric_id ORDER BY 1, 2")
        var keys: [String] = []
        while try statement.step() { keys.append("\(statement.text(0) ?? "") \(statement.text(1) ?? "")") }
        return keys
    }

    /// Samples of two metrics and sources, some with a device, metadata, a series or a category,
    /// some without an offset.
    func samples(_ range: Range<Int>) -> [LanedSample] {
        range.map { index in
            var sample = RecordFixtures.sample(index: index, metric: index % 7 == 0 ? "step_count" : "heart_rate")
            if index % 3 == 0 { sample.device = "Watch \(index % 2)" }
            if index % 5 == 0 { sample.sourceVersion = "17.\(index % 4)" }
            if index % 11 == 0 { sample.utcOffsetSeconds = nil }
            if index % 13 == 0 {
                sample.series = [SeriesPoint(instant: sample.start, value: Double(index))]
            }
            let metadata = index % 4 == 0 ? [MetadataEntry(key: "HKWasUserEntered", value: "\(index % 2)")] : []
            sample.metadata = metadata
            return LanedSample(sample, lane: index % 9 == 0 ? .hot : .cold)
        }
    }

    @Test(arguments: [false, true])
    func aStatementOfManyStoresWhatOneAtATimeStores(snapshot: Bool) throws {
        let mark = snapshot ? SnapshotMark(run: 1, takenAt: RecordFixtures.now) : nil
        // Stored before: every tenth sample of the batch, so runs mix new samples and duplicates.
        let earlier = samples(0..<300).enumerated().filter { $0.offset % 10 == 4 }.map(\.element)
        // The batch repeats some of its own samples too.
        let batch = samples(0..<300) + samples(17..<20) + samples(120..<200)
        #expect(batch.count >= 4 * Store.samplesPerInsert)

        let many = try openStore("many")
        let one = try openStore("one")
        for store in [many, one] {
            try store.commit(CommitBatch(stream: "s", samples: earlier, cursors: [.cold: 1]))
        }
        let result = try many.commit(CommitBatch(stream: "s", samples: batch, snapshot: mark, cursors: [.cold: 2]))
        var reference = CommitResult()
        for laned in batch {
            reference =
                reference
                + (try one.commit(CommitBatch(stream: "s", samples: [laned], snapshot: mark, cursors: [.cold: 2])))
        }

        #expect(result.sampleOutcomes == reference.sampleOutcomes)
        #expect(result.inserted == 300 - earlier.count)
        #expect(result.duplicates == earlier.count + 3 + 80)
        #expect(result.inserted == reference.inserted && result.duplicates == reference.duplicates)
        #expect(try rows(many) == rows(one))
        #expect(try dirtyKeys(many) == dirtyKeys(one))
        // Row ids keep the batch's order, and the sequence ends at the last stored sample.
        let rowIDs = try many.connection.prepare(
            "SELECT rowid FROM samples WHERE rowid > \(earlier.count) ORDER BY rowid")
        var stored: [Int64] = []
        while try rowIDs.step() { stored.append(rowIDs.int64(0)) }
        #expect(stored.count == result.inserted)
        #expect(try many.lastSampleSequence() == stored.last)
    }

    /// A sample the schema refuses inside a statement of many fails the batch, as one alone does.
    @Test func aRefusedRowAmongManyFailsTheWholeBatch() throws {
        let store = try openStore("store")
        var batch = samples(0..<(2 * Store.samplesPerInsert))
        var backwards = batch[70].sample
        backwards.end = backwards.start.adding(seconds: -60)
        batch[70] = LanedSample(backwards, lane: .cold)
        #expect(throws: SQLiteError.self) {
            try store.commit(CommitBatch(stream: "s", samples: batch, cursors: [.cold: 1]))
        }
        #expect(try store.status().samples.total == 0)
        #expect(try store.cursor(stream: "s", lane: .cold) == nil)
    }

    /// Once a tombstone exists each sample is checked against them, one at a time.
    @Test func aTombstoneKeepsItsSampleOutOfALaterRun() throws {
        let store = try openStore("store")
        let batch = samples(0..<(2 * Store.samplesPerInsert))
        let deleted = batch[100].sample
        try store.commit(
            CommitBatch(
                stream: "s",
                tombstones: [Tombstone(of: deleted, reason: "deleted_at_source", deletedAt: RecordFixtures.now)],
                cursors: [.change: 1]))
        let result = try store.commit(CommitBatch(stream: "s", samples: batch, cursors: [.cold: 1]))
        #expect(result.deletedEarlier == 1)
        #expect(result.sampleOutcomes[100] == .deletedEarlier)
        #expect(result.inserted == batch.count - 1)
    }

    /// A series is kept by its sample's row id, and goes with the sample a tombstone deletes.
    @Test func aSeriesGoesWithItsDeletedSample() throws {
        let store = try openStore("store")
        let batch = samples(0..<(2 * Store.samplesPerInsert))
        try store.commit(CommitBatch(stream: "s", samples: batch, cursors: [.cold: 1]))
        let withSeries = batch.filter { !$0.sample.series.isEmpty }
        let count = "SELECT count(*) FROM sample_series ss JOIN samples s ON s.rowid = ss.sample_rowid"
        #expect(try store.connection.scalar(count) == Int64(withSeries.count))
        let deletion = Tombstone(of: withSeries[1].sample, reason: "deleted_at_source", deletedAt: RecordFixtures.now)
        try store.commit(CommitBatch(stream: "s", tombstones: [deletion], cursors: [.change: 1]))
        #expect(try store.connection.scalar(count) == Int64(withSeries.count - 1))
        #expect(try store.connection.scalar("SELECT count(*) FROM sample_series") == Int64(withSeries.count - 1))
    }

    /// Statements are reset without clearing their parameters (`rebind`), so every
    /// parameter is bound for every row: a sample without a version, device, offset, value,
    /// category, spelling, metadata, snapshot or restored deletion stores NULL there, not what
    /// the sample before it on the same statement had. One at a time (a tombstone exists, and
    /// the first sample restores a deleted one) and two to a statement.
    @Test(arguments: [false, true])
    func whatASampleLacksIsNullAfterOneThatHadIt(oneAtATime: Bool) throws {
        let store = try openStore("store")
        let full = (0..<2).map { index in
            var sample = RecordFixtures.sample(index: index)
            sample.sourceVersion = "17.1"
            sample.device = "Watch"
            sample.category = "HKCategoryValueSleepAnalysisAsleepCore"
            sample.metadata = [MetadataEntry(key: "HKWasUserEntered", value: "1")]
            return LanedSample(sample, lane: oneAtATime ? .change : .cold)
        }
        if oneAtATime {
            // The second keeps the store checking each sample against tombstones after the first goes.
            let deleted = [full[0].sample, RecordFixtures.sample(index: 1_000)]
            try store.commit(
                CommitBatch(
                    stream: "s",
                    tombstones: deleted.map {
                        Tombstone(of: $0, reason: "deleted_at_source", deletedAt: RecordFixtures.now)
                    }, cursors: [.change: 1]))
        }
        try store.commit(
            CommitBatch(
                stream: "s", samples: full, snapshot: SnapshotMark(run: 1, takenAt: RecordFixtures.now),
                cursors: [.cold: 1]))
        let bare = (2..<4).map { index in
            var sample = RecordFixtures.sample(index: index)
            sample.utcOffsetSeconds = nil
            sample.value = nil
            sample.valueAsWritten = nil
            sample.unitAsWritten = nil
            return LanedSample(sample, lane: .cold)
        }
        try store.commit(CommitBatch(stream: "s", samples: bare, cursors: [.cold: 2]))

        let stored = try rows(store).map { $0.split(separator: "|", omittingEmptySubsequences: false) }
        #expect(stored.count == 4)
        // source_version, device, utc_offset_s, value, category, value_text, unit_text, metadata,
        // snapshot_ms, restores_ms
        let optional = [3, 4, 7, 8, 9, 10, 11, 14, 15, 16]
        #expect(optional.filter { stored[0][$0] == "NULL" } == (oneAtATime ? [] : [16]))
        for row in stored[2...] {
            #expect(optional.map { row[$0] } == Array(repeating: "NULL", count: optional.count))
        }
    }
}
