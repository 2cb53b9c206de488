import HealthETLCore
import HealthETLOutput
import HealthETLPipeline
import HealthETLStore

/// `healthetl report`: gathers a range of days from the store (daily figures from the same
/// projection code as `projections --local`) and writes the self-contained HTML report.
public struct HTMLReportWriter {
    public let request: HTMLReportRequest

    /// The charted metrics: id, title, and the unit as a person reads it.
    static let charted: [(metric: String, title: String, unit: String)] = [
        ("step_count", "Daily steps", "steps"),
        ("resting_heart_rate", "Resting heart rate", "bpm"),
        ("heart_rate_variability_sdnn", "Heart rate variability", "ms"),
        ("body_mass", "Weight", "kg"),
    ]

    public init(request: HTMLReportRequest) {
        self.request = request
    }

    public func run(store directory: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system) throws
        -> HTMLReportSummary
    {
        let started = clock.now()
        let store = try Store(directory: directory, clock: clock)
        let days = try range(store, clock: clock)
        // The coverage pass reads every sample of the range: on the other core, over its own connection.
        let counts = ThreadWork(name: "healthetl-report-counts") {
            try Store(directory: directory, clock: clock).sampleCounts(days: days)
        }
        // Whatever fails here, the pass ends before the store is left.
        defer { _ = try? counts.value() }
        let projections = try LocalProjections.configured(for: store, catalog: catalog)
        var rollups: [String: [DailyRollup]] = [:]
        var nights: [SleepNight] = []
        try projections.computeInPieces(
            store, metrics: Self.charted.map(\.metric) + [SleepNightCalculator.metric], days: days
        ) { pieceDays, pieceNights, _ in
            for rollup in pieceDays { rollups[rollup.metric, default: []].append(rollup) }
            nights += pieceNights
        }
        let series = Self.charted.map { chart in
            HTMLReportData.Series(
                metric: chart.metric, title: chart.title, unit: chart.unit, rollups: rollups[chart.metric] ?? [])
        }
        let insights = try Self.insights(projections, store: store, days: days, rollups: rollups, nights: nights)
        let (coverage, flagged) = try counts.value()
        let inRange = { (day: CivilDate) in days.contains(day) }
        let data = HTMLReportData(
            days: days, generatedAt: clock.now().truncatedToSecond, steps: series[0], restingHeartRate: series[1],
            heartRateVariability: series[2], weight: series[3], sleep: nights,
            workouts: WorkoutMatcher(priority: projections.priority, catalog: catalog).preferred(
                try store.workoutListings(starts: DailyRollupCalculator.sampleWindow(for: days))
            ).listings.filter {
                inRange(LocalZone.fixed(utcOffsetSeconds: $0.utcOffsetSeconds ?? 0).localDay(of: $0.start))
            },
            coverage: coverage, quarantine: try store.quarantineCounts(), flagged: flagged, insights: insights)
        let html = HTMLReportRenderer(data: data).render()
        let output = try ExportOutput(path: request.output)
        try output.append { $0.append(contentsOf: html) }
        try output.finish()
        var charted = Dictionary(uniqueKeysWithValues: series.map { ($0.metric, $0.rollups.count) })
        charted[SleepNightCalculator.metric] = nights.count
        return HTMLReportSummary(
            output: request.output, from: days.lowerBound.description, to: days.upperBound.description,
            chartedDays: charted, sleepNights: nights.count, workouts: data.workouts.count,
            bytes: output.bytesWritten, seconds: started.seconds(until: clock.now()))
    }

    /// The insights of the range: the charted rollups and nights, and those of the rule metrics
    /// in the 56 days before the range that the first days' baselines and streaks read.
    static func insights(
        _ projections: LocalProjections, store: Store, days: ClosedRange<CivilDate>, rollups: [String: [DailyRollup]],
        nights: [SleepNight]
    ) throws -> [Insight] {
        let calculator = InsightCalculator()
        let before = try projections.compute(
            store, metrics: calculator.metrics,
            days: days.lowerBound.adding(days: -InsightCalculator.dependencyDays)...days.lowerBound.adding(days: -1))
        return calculator.insights(
            from: calculator.days(
                rollups: before.days + rollups.values.joined(), nights: before.nights + nights, in: days))
    }

    /// The requested days. By default the year up to the last sample's local day, from the
    /// first sample's day when that is later; an open end runs to the store's last (or first) day.
    private func range(_ store: Store, clock: Clock) throws -> ClosedRange<CivilDate> {
        let stored = try store.sampleLocalDays()
        let last = request.to ?? max(stored?.upperBound ?? clock.now().utcDay, request.from ?? .init(daysSinceEpoch: 0))
        var first = request.from ?? last.adding(days: -364)
        if request.from == nil, let earliest = stored?.lowerBound, earliest > first, earliest <= last {
            first = earliest
        }
        guard first <= last else { throw ExportError.unsupported("--from must not be after --to") }
        return first...last
    }
}
