import Foundation

/// Rolls one metric's samples up into one `DailyRollup` per local day.
///
/// The catalog's aggregation decides how: cumulative metrics are summed with one source per time
/// slice (`SourcePriority`), so a watch and a phone counting the same walk are not added twice;
/// discrete metrics get statistics over every source; categories and intervals get the time they
/// cover. The result depends only on the set of samples, never on their order.
public struct DailyRollupCalculator: Sendable {
    public var metric: MetricDefinition
    public var priority: SourcePriority
    /// The person's home zone, for samples without an `HKTimeZone` (see `LocalDayResolver`).
    public var configuredZone: TimeZone?

    public init(
        metric: MetricDefinition, priority: SourcePriority = SourcePriority(),
        configuredZone: TimeZone? = nil
    ) {
        self.metric = metric
        self.priority = priority
        self.configuredZone = configuredZone
    }

    /// The rollups of the local days the samples touch, sorted by day.
    /// - Parameters:
    ///   - samples: the metric's samples, in any order, spanning any number of days; samples of
    ///     other metrics are ignored.
    ///   - days: compute only these days (the ones a batch touched), or every day when nil. The
    ///     samples must then hold everything that touches those days: see `sampleWindow(for:)`.
    /// - Returns: one rollup per day that has samples; none for a panel metric, which is reported
    ///   through its component metrics.
    public func rollups(for samples: [Sample], days: Set<CivilDate>? = nil) -> [DailyRollup] {
        let rollups: [DailyRollup]
        switch metric.aggregation {
        case .sum: rollups = cumulativeRollups(of: Self.keeping(samples, isValued), days: days)
        case .statistics, .latest: rollups = discreteRollups(of: Self.keeping(samples, isValued), days: days)
        case .duration, .count: rollups = coverageRollups(of: Self.keeping(samples, isOfMetric), days: days)
        case .panel: rollups = []
        }
        return rollups.sorted { $0.day < $1.day }
    }

    /// The UTC instants a sample must touch to affect local `day`, whatever its zone.
    ///
    /// Local `day` runs from one midnight to the next at the sample's offset, and offsets lie
    /// within ±14 h, so the window is the day read as UTC widened by 14 h on each side. Query
    /// samples with `start < window.upperBound && end >= window.lowerBound`: a sample that started
    /// before the window and ends inside it still puts part of its value on the day.
    public static func sampleWindow(for day: CivilDate) -> Range<Instant> {
        let margin = LocalZone.widestOffsetMilliseconds
        let midnight = day.daysSinceEpoch * LocalZone.millisecondsPerDay
        let from = Instant(millisecondsSinceEpoch: midnight - margin)
        let to = Instant(millisecondsSinceEpoch: midnight + LocalZone.millisecondsPerDay + margin)
        return from..<to
    }

    /// The instants a sample must touch to affect any of `days`: from the first day's window to
    /// the last one's.
    public static func sampleWindow(for days: ClosedRange<CivilDate>) -> Range<Instant> {
        sampleWindow(for: days.lowerBound).lowerBound..<sampleWindow(for: days.upperBound).upperBound
    }
}

// MARK: - Shared steps

extension DailyRollupCalculator {
    /// The samples `included` keeps; the same array, not a copy of every sample, when it keeps all.
    static func keeping(_ samples: [Sample], _ included: (Sample) -> Bool) -> [Sample] {
        samples.allSatisfy(included) ? samples : samples.filter(included)
    }

    func isOfMetric(_ sample: Sample) -> Bool {
        sample.metric == metric.id
    }

    /// Quantity metrics: a sample without a value has nothing to add.
    func isValued(_ sample: Sample) -> Bool {
        sample.metric == metric.id && sample.value != nil
    }

    /// Which local days a sample belongs to.
    enum DayAssignment {
        /// Only the day it starts on (measurements).
        case startDay
        /// Every day it spans, cut at local midnight (amounts and coverage).
        case everyDaySpanned
    }

    /// The samples' pieces grouped by local day, keeping only `days` when given.
    func piecesByDay(
        of samples: [Sample], assignment: DayAssignment, days: Set<CivilDate>?
    ) -> [CivilDate: [DayPiece]] {
        var resolver = LocalDayResolver(configuredZone: configuredZone)
        var byDay: [CivilDate: [DayPiece]] = [:]
        let range = days.flatMap { days in days.min().map { $0...(days.max() ?? $0) } }
        // Field by field: `enumerated()`, or passing a sample to a function, copied the whole
        // sample (a retain of each text it holds).
        for index in samples.indices {
            let zone = resolver.zone(
                timeZone: Sample.timeZone(samples[index].metadata), utcOffsetSeconds: samples[index].utcOffsetSeconds)
            let span = DayPiece.SampleSpan(samples, index)
            switch assignment {
            case .startDay:
                let piece = DayPiece.firstPiece(of: span, at: index, in: zone)
                if days?.contains(piece.day) ?? true { byDay[piece.day, default: []].append(piece) }
            case .everyDaySpanned:
                DayPiece.cut(span, at: index, in: zone, within: range) { piece in
                    if days?.contains(piece.day) ?? true { byDay[piece.day, default: []].append(piece) }
                }
            }
        }
        return byDay
    }

    /// Pieces in an order that does not depend on the input's, so floating-point sums are
    /// identical however the samples arrive.
    func stableOrder(_ pieces: [DayPiece]) -> [DayPiece] {
        pieces.sorted {
            ($0.span.lowerBound, $0.span.upperBound, $0.sampleID)
                < ($1.span.lowerBound, $1.span.upperBound, $1.sampleID)
        }
    }

    /// Names of the sources of the pieces' samples, sorted.
    func sortedSourceNames(_ pieces: [DayPiece], of samples: [Sample]) -> [String] {
        // A day's pieces come in runs of one source, or interleave a few: a name whose bytes were
        // seen among the first `remembered` spellings is not hashed again.
        var names = Set<String>()
        var seen: [String] = []
        let remembered = 16
        for piece in pieces {
            let name = samples[piece.sampleIndex].sourceName
            if seen.contains(where: { ExactText.sameBytes($0, name) }) { continue }
            names.insert(name)
            if seen.count < remembered { seen.append(name) }
        }
        return names.sorted()
    }
}
