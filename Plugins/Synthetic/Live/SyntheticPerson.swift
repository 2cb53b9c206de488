import HealthETLCore
import Synchronization

/// One simulated person as a live source: history backfilled in the cold lane, what happens
/// from the origin on in the hot lane, deletions and edits in the change lane.
///
/// Every record is a pure function of (seed, person, day), and each lane's cursor says how far
/// along that fixed set the lane is, so any interleaving of the lanes, interrupted and resumed
/// anywhere, ends with the same store.
/// - hot: cursor = the arrival time (ms) up to which records were handed over. It starts at the
///   origin minus the hot window, so the first run delivers the recent week at once.
/// - cold: cursor = minus the start (ms) of the oldest day-sized chunk backfilled: it grows as
///   the backfill goes back in time, as cursors must.
/// - change: cursor = how many of the scheduled deletions and edits were made.
public final class SyntheticPerson: LaneSource {
    public let settings: SyntheticSettings
    private let model: ReadOnlyModel
    private let renderer: LiveRenderer
    private let normalizer: Normalizer
    private let firstDay: Int
    private let cache = Mutex(DayCache())

    private static let day: Int64 = 86_400_000

    public init(settings: SyntheticSettings, catalog: MetricCatalog) {
        self.settings = settings
        let personSeed =
            settings.person == 1
            ? settings.seed : SplitMix64.mix(settings.seed &+ UInt64(settings.person) &* 0x9E37_79B9)
        model = ReadOnlyModel(HealthModel(seed: personSeed, samplesPerDay: settings.samplesPerDay), seed: personSeed)
        renderer = LiveRenderer(person: settings.person)
        normalizer = Normalizer(catalog: catalog, now: settings.origin)
        firstDay = Int(CivilTime.floorDiv(settings.originMilliseconds / 1000, 86_400)) - settings.historyDays
    }

    public var streamName: String { settings.streamName }

    /// Where the history starts (ms): records of earlier days are not part of the stream.
    private var historyStart: Int64 { Int64(firstDay) * Self.day }
    private var hotStart: Int64 { max(historyStart, settings.originMilliseconds - settings.hotWindowSeconds * 1000) }

    public func initialCursor(_ lane: Lane) -> Int64 {
        switch lane {
        case .hot: hotStart
        case .cold: -hotStart
        case .change: 0
        }
    }

    public func next(_ lane: Lane, after cursor: Int64, now: Instant, limit: Int) -> LaneStep {
        switch lane {
        case .hot: hot(after: cursor, now: now.millisecondsSinceEpoch, limit: limit)
        case .cold: cold(after: cursor)
        case .change: changes(after: cursor, now: now.millisecondsSinceEpoch, limit: limit)
        }
    }

    // MARK: lanes

    private func hot(after cursor: Int64, now: Int64, limit: Int) -> LaneStep {
        var items = arriving(after: cursor, through: now)
        guard !items.isEmpty else { return .waiting(until: nextArrival(after: max(cursor, now))) }
        if items.count > limit {
            // Cut after the limit-th arrival, keeping records that arrive together together.
            let through = items[limit - 1].availableAt
            items.removeAll { $0.availableAt > through }
        }
        // The last arrival, not the clock: the cursor then depends only on what was delivered.
        return .batch(events(items, lane: .hot), cursor: items[items.count - 1].availableAt)
    }

    private func cold(after cursor: Int64) -> LaneStep {
        let upper = -cursor
        // Records of the first day may arrive from the evening before it.
        let floor = historyStart - Self.day
        guard upper > floor else { return .finished }
        let lower = max(floor, upper - Self.day)
        let items = arriving(after: lower, through: upper)
        return .batch(events(items, lane: .cold), cursor: -lower)
    }

    private func changes(after done: Int64, now: Int64, limit: Int) -> LaneStep {
        guard settings.changesPerDay > 0 else { return .finished }
        var events: [SourceEvent] = []
        var next = done
        while next - done < Int64(limit), scheduled(next) <= now {
            change(number: next, into: &events)
            next += 1
        }
        guard next > done else { return .waiting(until: Instant(millisecondsSinceEpoch: scheduled(next))) }
        return .batch(events, cursor: next)
    }

    /// When change `number` happens: evenly through every day from the start of the history.
    private func scheduled(_ number: Int64) -> Int64 {
        historyStart + (number + 1) * (Self.day / Int64(settings.changesPerDay))
    }

    /// A deletion or an edit (deletion plus the corrected record) of a record from the day
    /// before the change.
    private func change(number: Int64, into events: inout [SourceEvent]) {
        let at = scheduled(number)
        let day = max(firstDay, Int(CivilTime.floorDiv(at, Self.day)) - 1)
        let candidates = items(day: day).compactMap { item -> (HealthType, SimulatedRecord)? in
            guard case .record(let type, let record, .none) = item.kind, record.kind == .quantity,
                !type.isCorrelationMember
            else { return nil }
            return (type, record)
        }
        guard !candidates.isEmpty else { return }
        let pick = SplitMix64.mix(model.salt &+ UInt64(bitPattern: number))
        let (type, picked) = candidates[Int(pick % UInt64(candidates.count))]
        let original = renderer.raw(picked, type: type)
        guard let sample = normalizer.sample(from: original) else { return }
        let deletedAt = Instant(millisecondsSinceEpoch: at)
        let isEdit = (pick >> 40) & 1 == 1
        events.append(
            .deletion(
                Tombstone(of: sample, reason: isEdit ? "edited_at_source" : "deleted_at_source", deletedAt: deletedAt)))
        guard isEdit else { return }
        var corrected = picked
        corrected.value += 1 + Int64((pick >> 8) % 5)
        var record = renderer.raw(corrected, type: type)
        record.metadata.append(MetadataEntry(key: "HKWasUserEntered", value: "1"))
        events.append(.record(record, lane: .change))
    }

    // MARK: items

    private func events(_ items: [LiveItem], lane: Lane) -> [SourceEvent] {
        var events: [SourceEvent] = []
        events.reserveCapacity(items.count)
        for item in items { renderer.events(item, lane: lane, into: &events) }
        return events
    }

    /// Items of the stream's days arriving in (after, through], in arrival order.
    private func arriving(after: Int64, through: Int64) -> [LiveItem] {
        guard through > after else { return [] }
        // An item arrives at most a day and a half after the start of its day (sleep ends the
        // next morning; late records come up to 12 h after that), never before the evening before.
        let first = max(firstDay, Int(CivilTime.floorDiv(after, Self.day)) - 2)
        let last = Int(CivilTime.floorDiv(through, Self.day)) + 1
        guard first <= last else { return [] }
        var found: [LiveItem] = []
        for day in first...last {
            for item in items(day: day) where item.availableAt > after && item.availableAt <= through {
                found.append(item)
            }
        }
        found.sort { $0.availableAt < $1.availableAt }
        return found
    }

    /// The first arrival after `instant`, or an hour later if none comes within days.
    private func nextArrival(after instant: Int64) -> Instant {
        let day = max(firstDay, Int(CivilTime.floorDiv(instant, Self.day)) - 2)
        var earliest = Int64.max
        for d in day...(day + 4) {
            for item in items(day: d) where item.availableAt > instant { earliest = min(earliest, item.availableAt) }
        }
        return Instant(millisecondsSinceEpoch: earliest == .max ? instant + 3_600_000 : earliest)
    }

    private func items(day: Int) -> [LiveItem] {
        if let cached = cache.withLock({ $0.items(day: day) }) { return cached }
        let items = model.items(day: day, faults: settings.faults)
        cache.withLock { $0.keep(items, day: day) }
        return items
    }
}

/// The few most recently generated days: the lanes ask for neighbouring windows repeatedly.
struct DayCache: Sendable {
    private var days: [Int: [LiveItem]] = [:]
    private var order: [Int] = []
    private let capacity = 24

    func items(day: Int) -> [LiveItem]? { days[day] }

    mutating func keep(_ items: [LiveItem], day: Int) {
        guard days[day] == nil else { return }
        days[day] = items
        order.append(day)
        if order.count > capacity { days[order.removeFirst()] = nil }
    }
}
