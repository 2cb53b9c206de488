import HealthETLCore

/// The checks every source plugin must pass, on any input: unique non-null ids, valid
/// timestamps, a valid final cursor, and nothing new when run again from that cursor.
/// Each check returns the problems it found, in words; an empty list means the source conforms.
public enum SourceConformance {
    /// Drains every lane of a live source up to `now`, then asks each lane again from its
    /// final cursor; and checks what the plugin `declares`: `.deletions` (the change lane deletes
    /// something) and `.follows` (the hot lane waits for the clock rather than finishing).
    public static func problems(
        of source: any LaneSource, declaring declared: SourceCapabilities, now: Instant, catalog: MetricCatalog
    ) -> [String] {
        let normalizer = Normalizer(catalog: catalog, now: now)
        var problems: [String] = []
        var seen: [ContentID: Sample] = [:]
        var deletions = 0
        for lane in Lane.allCases {
            var cursor = source.initialCursor(lane)
            var batches = 0
            drain: while batches < 100_000 {
                switch source.next(lane, after: cursor, now: now, limit: 5_000) {
                case .batch(let events, let next):
                    if next < cursor { problems.append("\(lane) cursor moved back from \(cursor) to \(next)") }
                    if next == cursor, !events.isEmpty {
                        problems.append("\(lane) batch at \(cursor) did not move the cursor")
                    }
                    problems += recordProblems(events, normalizer: normalizer, seen: &seen, lane: lane)
                    deletions += events.filter { if case .deletion = $0 { true } else { false } }.count
                    cursor = next
                    batches += 1
                case .waiting(let until):
                    if until <= now { problems.append("\(lane) waits for \(until), which is not after now") }
                    break drain
                case .finished:
                    if lane == .hot, declared.contains(.follows) {
                        problems.append(
                            "it declares follows, but its hot lane finished instead of waiting for the clock")
                    }
                    break drain
                }
            }
            // Again from the final cursor: nothing that was not already there.
            if case .batch(let events, _) = source.next(lane, after: cursor, now: now, limit: 5_000), !events.isEmpty {
                problems.append(
                    "\(lane) gives \(events.count) more events when asked again from its final cursor \(cursor)")
            }
        }
        if declared.contains(.deletions), deletions == 0 {
            problems.append("it declares deletions, but its change lane deleted nothing")
        }
        return problems
    }

    /// Runs an adapter over an input twice (the second time resumed from the first run's final
    /// cursors): the first run's records must conform, the second must add no id.
    public static func problems(of adapter: any SourceAdapter, input: SourceInput, catalog: MetricCatalog) throws
        -> [String]
    {
        var first = Collector()
        let report = try adapter.read(input, into: &first)
        var problems = report.complete ? [] : ["the read was incomplete: \(report.problem ?? "no reason given")"]
        if first.stream == nil { problems.append("no stream was announced") }
        if first.recordBeforeStream { problems.append("records came before the stream was announced") }
        if first.events.compactMap(record).isEmpty { problems.append("no records were read") }
        if first.checkpoints.isEmpty { problems.append("no checkpoint: nothing could ever be committed") }
        let positions = first.checkpoints.map(\.position)
        if positions != positions.sorted() { problems.append("checkpoints move backwards") }
        if let end = first.endPosition, positions.last != end {
            problems.append(
                "the final cursor \(positions.last.map(String.init) ?? "none") is not the input's end \(end)")
        }
        var seen: [ContentID: Sample] = [:]
        let normalizer = Normalizer(catalog: catalog, now: first.now ?? Instant(millisecondsSinceEpoch: 0))
        problems += recordProblems(first.events, normalizer: normalizer, seen: &seen, lane: nil)

        var again = Collector()
        var resumed = input
        resumed.resumeFrom = first.checkpoints.suffix(1)
        _ = try adapter.read(resumed, into: &again)
        let known = Set(seen.keys)
        let new = again.events.compactMap(record).compactMap { normalizer.sample(from: $0)?.id }.filter {
            !known.contains($0)
        }
        if !new.isEmpty { problems.append("\(new.count) records are new when read again from the final cursor") }
        if type(of: adapter).capabilities.contains(.resumable) {
            problems += try resumeProblems(of: adapter, input: input, first: first, normalizer: normalizer)
        }
        return problems
    }

    /// A source that declares `.resumable`, resumed from a checkpoint part-way through, must
    /// hand on no record that checkpoint covers, and every record after it that a whole read gives.
    private static func resumeProblems(
        of adapter: any SourceAdapter, input: SourceInput, first: Collector, normalizer: Normalizer
    ) throws -> [String] {
        guard let stream = first.stream, !first.checkpoints.isEmpty else { return [] }
        let middle = first.checkpoints.count / 2
        let at = first.checkpoints[middle].position
        var resumed = input
        resumed.resumeFrom = [Lane.hot, .cold].map { StreamCursor(stream: stream, lane: $0, position: at) }
        var partial = Collector()
        _ = try adapter.read(resumed, into: &partial)
        let ids = { (events: ArraySlice<SourceEvent>) in
            events.compactMap(record).compactMap { normalizer.sample(from: $0)?.id }
        }
        let before = ids(partial.events[..<partial.covered(upTo: at)])
        var problems: [String] = []
        if !before.isEmpty {
            problems.append(
                "resumed at \(at) it read \(before.count) records its cursor covers again: it ignores its cursor")
        }
        let expected = Set(ids(first.events[first.covered(upTo: at)...]))
        let after = Set(ids(partial.events[partial.covered(upTo: at)...]))
        if after != expected {
            problems.append(
                "resumed at \(at) it read \(after.count) records after its cursor where a whole read has \(expected.count)"
            )
        }
        return problems
    }

    private static func record(_ event: SourceEvent) -> RawRecord? {
        switch event {
        case .record(let record, _), .correlation(let record, _), .correlationComponent(let record, _),
            .auxiliaryRecord(let record, _):
            record
        default: nil
        }
    }

    /// Timestamps parse and end is not before start; a stored record's id is not null, and two
    /// different records never share one.
    private static func recordProblems(
        _ events: [SourceEvent], normalizer: Normalizer, seen: inout [ContentID: Sample], lane: Lane?
    ) -> [String] {
        var problems: [String] = []
        let place = lane.map { " in the \($0) lane" } ?? ""
        for record in events.compactMap(record) {
            guard let start = record.start.timestamp, let end = record.end.timestamp else {
                problems.append("\(record.type)\(place): a date does not parse (\(record.start.asWritten))")
                continue
            }
            if end.instant < start.instant { problems.append("\(record.type)\(place): ends before it starts") }
            guard let sample = normalizer.sample(from: record) else { continue }
            if sample.id == ContentID(high: 0, low: 0) { problems.append("\(record.type)\(place): null id") }
            // Two records that store as one sample (a FIT heart rate in an activity's record and in
            // the day's monitoring) are one measurement; two that would store differently are not.
            if let earlier = seen[sample.id], earlier != sample {
                problems.append("\(record.type)\(place): two different records share the id \(sample.id)")
            }
            seen[sample.id] = sample
        }
        return problems
    }

    /// What an adapter emits, kept for the checks.
    struct Collector: SourceEventHandler {
        var stream: String?
        var now: Instant?
        var endPosition: Int64?
        var events: [SourceEvent] = []
        var checkpoints: [StreamCursor] = []
        /// How many events each checkpoint covered, by position.
        var coveredByCheckpoint: [(position: Int64, events: Int)] = []
        var recordBeforeStream = false

        /// How many of the events lie at or before `position`.
        func covered(upTo position: Int64) -> Int {
            coveredByCheckpoint.last { $0.position <= position }?.events ?? 0
        }

        mutating func receive(_ event: SourceEvent) throws {
            switch event {
            case .streamStarted(let name, let now, _, let end, _):
                stream = name
                self.now = now
                endPosition = end
            case .checkpoint(let cursor):
                checkpoints.append(cursor)
                coveredByCheckpoint.append((cursor.position, events.count))
            case .resumed:
                break
            default:
                if stream == nil { recordBeforeStream = true }
                events.append(event)
            }
        }
    }
}
