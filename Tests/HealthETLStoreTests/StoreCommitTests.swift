import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// The writer's promise: a batch and its cursor advances land together or not at all.
@Suite struct StoreCommitTests {
    let directory = TemporaryDirectory()

    func openStore() throws -> Store {
        try Store(directory: StoreDirectory(path: directory.child("store")), clock: .fixed(RecordFixtures.now))
    }

    func batch(_ range: Range<Int>, cursor: Int64, stream: String = "test:stream") -> CommitBatch {
        CommitBatch(
            stream: stream, samples: range.map { LanedSample(RecordFixtures.sample(index: $0), lane: .cold) },
            cursors: [.cold: cursor])
    }

    @Test func commitsSamplesAndCursorTogether() throws {
        let store = try openStore()
        let result = try store.commit(batch(0..<10, cursor: 10))
        #expect(result.inserted == 10)
        #expect(result.duplicates == 0)
        #expect(try store.status().samples.total == 10)
        #expect(try store.cursor(stream: "test:stream", lane: .cold) == 10)
    }

    @Test(arguments: [CommitStage.afterRows, .beforeCommit])
    func failureInsideCommitWritesNothing(stage: CommitStage) throws {
        let store = try openStore()
        try store.commit(batch(0..<5, cursor: 5))
        store.faultInjection = { current in
            if current == stage { throw InjectedFault() }
        }
        #expect(throws: InjectedFault.self) { try store.commit(batch(5..<20, cursor: 20)) }
        #expect(try store.status().samples.total == 5)
        #expect(try store.cursor(stream: "test:stream", lane: .cold) == 5)

        store.faultInjection = nil
        let retry = try store.commit(batch(5..<20, cursor: 20))
        #expect(retry.inserted == 15)
        #expect(try store.cursor(stream: "test:stream", lane: .cold) == 20)
    }

    @Test func rolledBackNamesAreInternedAgain() throws {
        let store = try openStore()
        store.faultInjection = { _ in throw InjectedFault() }
        // The stream, metric and source rows vanish with the rollback; their cached ids must too.
        #expect(throws: InjectedFault.self) { try store.commit(batch(0..<3, cursor: 3, stream: "new:stream")) }
        store.faultInjection = nil
        #expect(try store.commit(batch(0..<3, cursor: 3, stream: "new:stream")).inserted == 3)
    }

    /// A commit does not enforce foreign keys (it interns what it refers to itself): after
    /// commits, a failed one and its retry, every reference still finds its row.
    @Test func commitsLeaveEveryForeignKeyResolved() throws {
        let store = try openStore()
        try store.commit(batch(0..<100, cursor: 100))
        store.faultInjection = { _ in throw InjectedFault() }
        #expect(throws: InjectedFault.self) { try store.commit(batch(100..<300, cursor: 300, stream: "new:stream")) }
        store.faultInjection = nil
        var other = batch(100..<300, cursor: 300, stream: "new:stream")
        other.samples = other.samples.map {
            var sample = $0.sample
            sample.device = "Watch"
            return LanedSample(sample, lane: .cold)
        }
        #expect(try store.commit(other).inserted == 200)
        try store.commit(
            CommitBatch(
                stream: "new:stream",
                tombstones: [
                    Tombstone(
                        of: RecordFixtures.sample(index: 5), reason: "deleted_at_source", deletedAt: RecordFixtures.now)
                ],
                cursors: [.change: 1]))
        let check = try store.connection.prepare("PRAGMA foreign_key_check")
        var dangling: [String] = []
        while try check.step() { dangling.append("\(check.text(0) ?? "") → \(check.text(2) ?? "")") }
        #expect(dangling == [])
        #expect(try store.connection.scalar("PRAGMA foreign_keys") == 1)
    }

    @Test func cursorMovingBackwardsIsAnErrorAndWritesNothing() throws {
        let store = try openStore()
        try store.commit(batch(0..<10, cursor: 100))
        #expect(
            throws: StoreError.cursorMovedBackwards(stream: "test:stream", lane: .cold, current: 100, requested: 50)
        ) {
            try store.commit(batch(10..<20, cursor: 50))
        }
        #expect(try store.status().samples.total == 10)
        #expect(try store.cursor(stream: "test:stream", lane: .cold) == 100)
        // Standing still is allowed: a re-run that finds nothing new commits at the same place.
        #expect(try store.commit(batch(0..<10, cursor: 100)).duplicates == 10)
    }

    @Test func errorMessageNamesTheCursor() {
        let error = StoreError.cursorMovedBackwards(stream: "apple_health:x", lane: .hot, current: 9, requested: 3)
        #expect(error.description.contains("apple_health:x/hot"))
        #expect(error.description.contains("not written"))
    }

    /// Two connections taking turns, as `simulate --follow` and its tier-1 sender do: a commit
    /// must leave no statement on a row, or its connection keeps a read snapshot past COMMIT and
    /// its next write fails (SQLITE_BUSY_SNAPSHOT) once the other has written.
    @Test func twoConnectionsTakingTurnsBothKeepWriting() throws {
        let first = try openStore()
        let second = try openStore()
        try first.commit(batch(0..<5, cursor: 5))
        try second.commit(batch(5..<10, cursor: 5, stream: "test:other"))
        try first.commit(batch(10..<15, cursor: 15))
        _ = try first.uploadMark(.sampleSequence)
        try second.commit(batch(15..<20, cursor: 10, stream: "test:other"))
        try first.commit(batch(20..<25, cursor: 25))
        #expect(try first.status().samples.total == 25)
    }

    @Test func batchWithoutCursorIsRefused() throws {
        let store = try openStore()
        let empty = CommitBatch(
            stream: "s", samples: [LanedSample(RecordFixtures.sample(index: 0), lane: .hot)], cursors: [:])
        #expect(throws: StoreError.batchWithoutCursor(stream: "s")) { try store.commit(empty) }
        #expect(try store.status().samples.total == 0)
    }

    @Test func lanesHaveTheirOwnCursors() throws {
        let store = try openStore()
        try store.commit(CommitBatch(stream: "s", cursors: [.hot: 7, .cold: 3, .change: 1]))
        let cursors = try store.cursors()
        #expect(cursors.map(\.lane) == [.hot, .cold, .change])
        #expect(cursors.map(\.position) == [7, 3, 1])
    }

    /// Only a repeated id is a duplicate: a row the schema refuses fails the whole batch loudly
    /// instead of being counted as one.
    @Test func aRowTheSchemaRefusesFailsTheBatchInsteadOfPassingAsADuplicate() throws {
        let store = try openStore()
        var backwards = RecordFixtures.sample(index: 1)
        backwards.end = backwards.start.adding(seconds: -60)
        let bad = CommitBatch(
            stream: "test:stream",
            samples: [LanedSample(RecordFixtures.sample(index: 0), lane: .cold), LanedSample(backwards, lane: .cold)],
            cursors: [.cold: 2])
        #expect(throws: (any Error).self) { try store.commit(bad) }
        #expect(try store.status().samples.total == 0)
        #expect(try store.cursor(stream: "test:stream", lane: .cold) == nil)
    }

    @Test func duplicatesAreCountedNotStored() throws {
        let store = try openStore()
        try store.commit(batch(0..<10, cursor: 10))
        let again = try store.commit(batch(0..<15, cursor: 15))
        #expect(again.inserted == 5)
        #expect(again.duplicates == 10)
        #expect(try store.status().samples.byMetric == ["heart_rate": 15])
    }

    @Test func tombstoneRemovesTheSampleAndIsKept() throws {
        let store = try openStore()
        try store.commit(batch(0..<3, cursor: 3))
        let victim = RecordFixtures.sample(index: 1).id
        let deletion = Tombstone(
            of: RecordFixtures.sample(index: 1), reason: "deleted_at_source", deletedAt: RecordFixtures.now)
        let result = try store.commit(CommitBatch(stream: "test:stream", tombstones: [deletion], cursors: [.change: 1]))
        #expect(result.tombstones == 1)
        let status = try store.status()
        #expect(status.samples.total == 2)
        #expect(status.tombstones.total == 1)
        let metric = try store.connection.scalar(
            "SELECT metric_id FROM tombstones WHERE sample_id = x'\(victim.description)'")
        #expect(metric != nil)
        // The same deletion again is not a second tombstone.
        let repeated = try store.commit(
            CommitBatch(stream: "test:stream", tombstones: [deletion], cursors: [.change: 2]))
        #expect(repeated.tombstones == 0)
    }

    @Test func quarantineKeepsRawFormOnce() throws {
        let store = try openStore()
        let raw = RecordFixtures.record(type: "HKQuantityTypeIdentifierMadeUp", value: "1")
        let record = QuarantinedRecord(reason: .unknownType, detail: "no catalog metric", raw: raw)
        let first = try store.commit(CommitBatch(stream: "s", quarantined: [record], cursors: [.cold: 1]))
        let second = try store.commit(CommitBatch(stream: "s", quarantined: [record], cursors: [.cold: 2]))
        #expect(first.quarantined == 1)
        #expect(second.quarantineDuplicates == 1)
        #expect(try store.status().quarantine.byReason == ["unknown_type": 1])
        let statement = try store.connection.prepare("SELECT raw FROM quarantine")
        #expect(try statement.step())
        #expect(statement.text(0)?.contains("HKQuantityTypeIdentifierMadeUp") == true)
    }

    @Test func committedSamplesMarkTheirLocalDaysDirty() throws {
        let store = try openStore()
        // 23:30 to 00:30 local time at +01:00 touches two local days.
        let start = TimestampParser.parse("2024-03-01 23:30:00 +0100")!.instant
        let end = start.adding(seconds: 3600)
        let sample = Sample(
            id: ContentID(metric: "step_count", source: "p", start: start, end: end, value: "100", unit: "count"),
            metric: "step_count", sourceName: "p", start: start, end: end, utcOffsetSeconds: 3600, value: 100)
        try store.commit(CommitBatch(stream: "s", samples: [LanedSample(sample, lane: .hot)], cursors: [.hot: 1]))
        let statement = try store.connection.prepare("SELECT day FROM dirty_keys ORDER BY day")
        var days: [String] = []
        while try statement.step() { days.append(statement.text(0) ?? "") }
        #expect(days == ["2024-03-01", "2024-03-02"])
    }
}

struct InjectedFault: Error {}
