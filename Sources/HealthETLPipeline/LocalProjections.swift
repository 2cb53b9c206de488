import HealthETLCore
import HealthETLStore

/// Daily rollups and sleep nights computed from the store with the collector's own calculators,
/// for `projections --local` and for sinks that serve no projections.
public struct LocalProjections {
    public let catalog: MetricCatalog
    public let priority: SourcePriority
    /// Sources' own orders per metric (a phone's app priority), ranked after `priority`'s names.
    public let sourcesByMetric: [String: [String]]

    public init(catalog: MetricCatalog, priority: SourcePriority, sourcesByMetric: [String: [String]] = [:]) {
        self.catalog = catalog
        self.priority = priority
        self.sourcesByMetric = sourcesByMetric
    }

    /// The priority for one metric: the configured names first (the user's own choice), then
    /// the order a source gave for it.
    public func priority(for metric: String) -> SourcePriority {
        guard let order = sourcesByMetric[metric] else { return priority }
        return SourcePriority(preferred: priority.preferred + order.filter { !priority.preferred.contains($0) })
    }

    /// The rollups of `metrics` for `days`, and the sleep nights ending on them when sleep is one
    /// of the metrics.
    public func compute(_ store: any SampleLedger, metrics: [String], days: ClosedRange<CivilDate>) throws
        -> (days: [DailyRollup], nights: [SleepNight])
    {
        let span = days.upperBound.daysSinceEpoch - days.lowerBound.daysSinceEpoch
        let wanted = Set((0...span).map { days.lowerBound.adding(days: $0) })
        // Samples up to two days long that started before the range still reach into it.
        let window =
            DailyRollupCalculator.sampleWindow(for: days.lowerBound.adding(days: -2))
            .lowerBound..<DailyRollupCalculator.sampleWindow(for: days.upperBound.adding(days: 1)).upperBound
        var rollups: [DailyRollup] = []
        var nights: [SleepNight] = []
        for name in metrics {
            guard let definition = catalog.metric(named: name)?.definition else { continue }
            let samples = try store.samples(metric: name, starts: window)
            guard !samples.isEmpty else { continue }
            let ranked = priority(for: definition.id)
            rollups += DailyRollupCalculator(metric: definition, priority: ranked).rollups(for: samples, days: wanted)
            if name == SleepNightCalculator.metric {
                nights = SleepNightCalculator(priority: ranked).nights(for: samples, nights: wanted)
            }
        }
        return (rollups, nights)
    }

    /// `compute` over a long range a piece of `daysPerPiece` days at a time, handing each piece's
    /// rollups and nights to `body` in day order: memory holds one piece's samples of one metric.
    public func computeInPieces(
        _ store: any SampleLedger, metrics: [String], days: ClosedRange<CivilDate>, daysPerPiece: Int64 = 92,
        _ body: (_ days: [DailyRollup], _ nights: [SleepNight], _ through: CivilDate) throws -> Void
    ) throws {
        var first = days.lowerBound
        while first <= days.upperBound {
            let last = min(first.adding(days: daysPerPiece - 1), days.upperBound)
            let computed = try compute(store, metrics: metrics, days: first...last)
            try body(computed.days, computed.nights, last)
            first = last.adding(days: 1)
        }
    }

    /// The insight figures of `days`, from rollups and nights computed here over the days and the
    /// 56 before them: what the collector's `/v1/projections/insights` computes from its own.
    public func insightDays(_ store: any SampleLedger, days: ClosedRange<CivilDate>, calculator: InsightCalculator)
        throws -> [InsightDay]
    {
        let first = days.lowerBound.adding(days: -InsightCalculator.dependencyDays)
        var rollups: [DailyRollup] = []
        var nights: [SleepNight] = []
        try computeInPieces(store, metrics: calculator.metrics, days: first...days.upperBound) {
            rollups += $0
            nights += $1
            _ = $2
        }
        return calculator.days(rollups: rollups, nights: nights, in: days)
    }
}
