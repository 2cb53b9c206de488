import Foundation

/// Reads nights of sleep out of `sleep_analysis` samples.
///
/// A night takes its samples from one source only (the best by priority that wrote any in-bed or
/// asleep sample that night), so a watch and a ring tracking the same night never double it. The
/// result depends only on the set of samples, never on their order.
public struct SleepNightCalculator: Sendable {
    public static let metric = "sleep_analysis"
    /// A night runs from noon to noon: sleep ending at or after local 12:00 belongs to the next
    /// date's night.
    static let nightBoundary: Int64 = 12 * 3_600_000

    public var priority: SourcePriority
    /// The person's home zone, for samples without an `HKTimeZone` (see `LocalDayResolver`).
    public var configuredZone: TimeZone?

    public init(priority: SourcePriority = SourcePriority(), configuredZone: TimeZone? = nil) {
        self.priority = priority
        self.configuredZone = configuredZone
    }

    /// The nights the samples make, sorted by night.
    /// - Parameters:
    ///   - samples: sleep samples in any order; other metrics, `out_of_bed`, `unknown` and
    ///     unrecognised categories are ignored.
    ///   - nights: compute only these nights, or every night when nil. The samples must then hold
    ///     every sample ending in those nights: see `sampleWindow(forNight:)`.
    public func nights(for samples: [Sample], nights: Set<CivilDate>? = nil) -> [SleepNight] {
        segmentsByNight(samples, keeping: nights)
            .compactMap { night, segments in summarize(night: night, segments: segments) }
            .sorted { $0.night < $1.night }
    }

    /// The night a sample ending at `end` belongs to: the local date of its end if it ends before
    /// local 12:00, else the next date. A night `N` thus holds the sleep ending in
    /// `[N−1 12:00, N 12:00)` local time; ending at exactly 12:00 starts the next night.
    public static func night(endingAt end: Instant, in zone: LocalZone) -> CivilDate {
        let date = zone.localDay(of: end)
        return zone.millisecondsIntoDay(at: end) < nightBoundary ? date : date.adding(days: 1)
    }

    /// The UTC instants in which a sample of `night` ends, whatever its zone: the local
    /// `[N−1 12:00, N 12:00)` read as UTC and widened by 14 h on each side (offsets lie within
    /// ±14 h). Query samples with `end` in this window.
    public static func sampleWindow(forNight night: CivilDate) -> Range<Instant> {
        let margin = LocalZone.widestOffsetMilliseconds
        let noon = night.daysSinceEpoch * LocalZone.millisecondsPerDay + nightBoundary
        let from = Instant(millisecondsSinceEpoch: noon - LocalZone.millisecondsPerDay - margin)
        let to = Instant(millisecondsSinceEpoch: noon + margin)
        return from..<to
    }
}

// MARK: - Steps

extension SleepNightCalculator {
    /// One sleep sample reduced to what a night needs.
    struct Segment {
        var stage: SleepStage
        var source: SourceRank
        var span: Range<Int64>
    }

    private func segmentsByNight(
        _ samples: [Sample], keeping nights: Set<CivilDate>?
    ) -> [CivilDate: [Segment]] {
        var resolver = LocalDayResolver(configuredZone: configuredZone)
        var byNight: [CivilDate: [Segment]] = [:]
        for sample in samples where sample.metric == Self.metric {
            guard let stage = sample.category.flatMap(SleepStage.init(rawValue:)),
                stage != .outOfBed, stage != .unknown
            else { continue }
            let night = Self.night(endingAt: sample.end, in: resolver.zone(of: sample))
            guard nights?.contains(night) ?? true else { continue }
            // A sample that ends before it starts covers nothing.
            let end = max(sample.start, sample.end)
            let span = sample.start.millisecondsSinceEpoch..<end.millisecondsSinceEpoch
            byNight[night, default: []].append(
                Segment(stage: stage, source: priority.rank(of: sample), span: span))
        }
        return byNight
    }

    /// The night as the best source wrote it, or nil when no source was in bed or asleep.
    private func summarize(night: CivilDate, segments: [Segment]) -> SleepNight? {
        let sleeping = SleepStage.asleep.union([.inBed])
        guard let source = segments.filter({ sleeping.contains($0.stage) }).map(\.source).min() else {
            return nil
        }
        let used = Self.droppingUnstagedIfStaged(segments.filter { $0.source == source })
        guard let start = used.map(\.span.lowerBound).min(), let end = used.map(\.span.upperBound).max()
        else { return nil }
        let asleep = Self.union(of: used, in: SleepStage.asleep)
        let awake = Self.union(of: used, in: [.awake])
        return SleepNight(
            night: night, source: source.sourceName,
            inBedSeconds: Self.union(of: used, in: sleeping).seconds,
            asleepSeconds: Double(asleep.milliseconds - asleep.overlapMilliseconds(with: awake)) / 1000,
            coreSeconds: Self.union(of: used, in: [.asleepCore]).seconds,
            deepSeconds: Self.union(of: used, in: [.asleepDeep]).seconds,
            remSeconds: Self.union(of: used, in: [.asleepREM]).seconds,
            awakeSeconds: awake.seconds,
            start: Instant(millisecondsSinceEpoch: start), end: Instant(millisecondsSinceEpoch: end))
    }

    /// A source may write a generic "asleep" over the stretch it also wrote stages for; counting
    /// both would double the sleep, and the stages say more.
    private static func droppingUnstagedIfStaged(_ segments: [Segment]) -> [Segment] {
        guard segments.contains(where: { SleepStage.staged.contains($0.stage) }) else { return segments }
        return segments.filter { $0.stage != .asleepUnspecified }
    }

    private static func union(of segments: [Segment], in stages: Set<SleepStage>) -> IntervalUnion {
        IntervalUnion(segments.filter { stages.contains($0.stage) }.map(\.span))
    }
}
