import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import Synthetic

/// The synthetic live source: deterministic, lanes that partition one fixed history, faults
/// where asked, and the shared conformance suite.
@Suite struct SyntheticPersonTests {
    static let origin = Instant(secondsSinceEpoch: 1_767_225_600)  // 2026-01-01T00:00:00Z
    let catalog = try! MetricCatalog.bundled()

    func person(_ settings: SyntheticSettings) -> SyntheticPerson {
        SyntheticPerson(settings: settings, catalog: catalog)
    }

    /// Every record event of a lane, drained up to `now`.
    func drain(_ source: SyntheticPerson, _ lane: Lane, now: Instant) -> [RawRecord] {
        var cursor = source.initialCursor(lane)
        var records: [RawRecord] = []
        while case .batch(let events, let next) = source.next(lane, after: cursor, now: now, limit: 1_000) {
            for case .record(let record, _) in events { records.append(record) }
            cursor = next
        }
        return records
    }

    @Test func theSameSettingsGiveTheSameRecords() {
        let settings = SyntheticSettings(seed: 3, origin: Self.origin, historyDays: 10)
        for lane in Lane.allCases {
            #expect(drain(person(settings), lane, now: Self.origin) == drain(person(settings), lane, now: Self.origin))
        }
        let other = SyntheticSettings(seed: 4, origin: Self.origin, historyDays: 10)
        #expect(!drain(person(settings), .cold, now: Self.origin).isEmpty)
        #expect(drain(person(settings), .cold, now: Self.origin) != drain(person(other), .cold, now: Self.origin))
    }

    @Test func peopleHaveSourcesOfTheirOwn() {
        let first = drain(
            person(SyntheticSettings(seed: 1, person: 1, origin: Self.origin, historyDays: 2)), .cold, now: Self.origin)
        let second = drain(
            person(SyntheticSettings(seed: 1, person: 2, origin: Self.origin, historyDays: 2)), .cold, now: Self.origin)
        #expect(
            Set(first.map(\.sourceName)).isDisjoint(with: second.map(\.sourceName).filter { $0.contains("\u{2019}s") }))
    }

    /// Hot and cold split one history between them: moving the hot window moves records from
    /// one lane to the other and changes nothing else.
    @Test func hotAndColdPartitionTheHistory() {
        func all(hotWindow: Int64) -> (hot: [RawRecord], cold: [RawRecord]) {
            let source = person(
                SyntheticSettings(
                    seed: 1, origin: Self.origin, historyDays: 6, hotWindowSeconds: hotWindow, changesPerDay: 0))
            return (drain(source, .hot, now: Self.origin), drain(source, .cold, now: Self.origin))
        }
        let week = all(hotWindow: 3 * 86_400)
        let none = all(hotWindow: 0)
        #expect(!week.hot.isEmpty)
        #expect(none.hot.isEmpty)
        #expect(Set(week.hot + week.cold) == Set(none.cold))
        #expect((week.hot + week.cold).count == none.cold.count)
        // The hot lane holds what arrived within the window, the cold lane the rest.
        #expect(week.hot.allSatisfy { $0.end.timestamp!.instant > Self.origin.adding(seconds: -3 * 86_400 - 43_200) })
    }

    /// Live: what the hot lane hands over at a later clock is what happened since.
    @Test func theHotLaneFollowsTheClock() {
        let source = person(SyntheticSettings(seed: 1, origin: Self.origin, historyDays: 1, hotWindowSeconds: 0))
        let later = Self.origin.adding(seconds: 6 * 3600)
        guard
            case .batch(let events, let cursor) = source.next(
                .hot, after: source.initialCursor(.hot), now: later, limit: 100_000)
        else {
            Issue.record("six hours of a day give records")
            return
        }
        #expect(cursor <= later.millisecondsSinceEpoch)
        for case .record(let record, let lane) in events {
            #expect(lane == .hot)
            #expect(record.end.timestamp!.instant <= later)
        }
        guard case .waiting(let until) = source.next(.hot, after: cursor, now: later, limit: 100_000) else {
            Issue.record("nothing more before the clock moves")
            return
        }
        #expect(until > later)
    }

    @Test func changesDeleteAndEditRecordsTheOtherLanesDeliver() throws {
        let source = person(SyntheticSettings(seed: 1, origin: Self.origin, historyDays: 4, changesPerDay: 6))
        let normalizer = Normalizer(catalog: catalog, now: Self.origin)
        // A change can overtake its record: the last day's evening arrives after the origin.
        let tomorrow = Self.origin.adding(seconds: 86_400)
        let delivered = Set(
            (drain(source, .hot, now: tomorrow) + drain(source, .cold, now: Self.origin)).compactMap {
                normalizer.sample(from: $0)?.id
            })
        guard case .batch(let events, let cursor) = source.next(.change, after: 0, now: Self.origin, limit: 1_000)
        else {
            Issue.record("four days of changes")
            return
        }
        #expect(cursor == 24)
        var tombstones: [Tombstone] = []
        var edits = 0
        for event in events {
            switch event {
            case .deletion(let tombstone): tombstones.append(tombstone)
            case .record(_, let lane):
                #expect(lane == .change)
                edits += 1
            default: Issue.record("unexpected \(event)")
            }
        }
        #expect(tombstones.count == 24)
        #expect(edits > 0 && edits < 24)
        #expect(tombstones.allSatisfy { delivered.contains($0.sampleID) })
    }

    @Test func faultsAppearAtTheirRates() {
        let faults = FaultRates(duplicate: 0.05, outOfRange: 0.05, unknownType: 0.05, late: 0.1)
        let records = drain(
            person(
                SyntheticSettings(seed: 1, origin: Self.origin, historyDays: 3, hotWindowSeconds: 0, faults: faults)),
            .cold, now: Self.origin)
        let unknown = records.filter { $0.type == LiveRenderer.unknownType }.count
        #expect(unknown > records.count / 40 && unknown < records.count / 10)
        var counts: [RawRecord: Int] = [:]
        for record in records { counts[record, default: 0] += 1 }
        #expect(counts.values.filter { $0 == 2 }.count > records.count / 40)
        let normalizer = Normalizer(catalog: catalog, now: Self.origin)
        let flaggedOrRefused = records.filter {
            switch normalizer.normalize($0) {
            case .flagged, .quarantined: true
            case .accepted: false
            }
        }
        #expect(flaggedOrRefused.count > unknown)
    }

    @Test(arguments: [1, 2, 3])
    func conforms(person number: Int) {
        let source = person(
            SyntheticSettings(seed: 9, person: number, origin: Self.origin, historyDays: 10, changesPerDay: 4))
        #expect(
            SourceConformance.problems(
                of: source, declaring: SyntheticSource.capabilities, now: Self.origin.adding(seconds: 86_400),
                catalog: catalog) == [])
    }
}
