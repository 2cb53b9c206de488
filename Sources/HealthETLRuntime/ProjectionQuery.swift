import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import HealthETLWire

/// `projections`: the daily rollups and sleep nights of a range of days, as the collector last
/// computed them (each day with its freshness) or computed here from the store (`local`).
public struct ProjectionQuery: Sendable {
    /// One metric, or every metric with data in the range.
    public var metric: String?
    public var days: ClosedRange<CivilDate>
    public var local = false

    public init(metric: String? = nil, days: ClosedRange<CivilDate>, local: Bool = false) {
        self.metric = metric
        self.days = days
        self.local = local
    }

    /// The week ending on `last` (default: today in UTC), or from `first` when given.
    public static func days(first: CivilDate?, last: CivilDate?, clock: Clock = .system) -> ClosedRange<CivilDate>? {
        days(first: first, last: last, span: 7, clock: clock)
    }

    /// `span` days ending on `last` (default: today in UTC), or from `first` when given; nil when
    /// `first` is after `last`.
    static func days(first: CivilDate?, last: CivilDate?, span: Int64, clock: Clock) -> ClosedRange<CivilDate>? {
        let last = last ?? clock.now().utcDay
        let first = first ?? last.adding(days: 1 - span)
        return first <= last ? first...last : nil
    }

    /// - Throws: `ProjectionQueryError.unknownMetric` for a metric the catalog lacks; store errors.
    public func run(store directory: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system) throws
        -> ProjectionListing
    {
        if let metric, catalog.metric(named: metric) == nil { throw ProjectionQueryError.unknownMetric(metric) }
        let store = try Store(directory: directory, clock: clock)
        return try local
            ? computed(store, directory: directory, catalog: catalog, clock: clock) : stored(store, catalog)
    }

    private func metricNames(_ catalog: MetricCatalog) -> [String] {
        if let metric, let resolved = catalog.metric(named: metric) { return [resolved.id] }
        return catalog.metrics.map(\.id).sorted()
    }

    private func stored(_ store: Store, _ catalog: MetricCatalog) throws -> ProjectionListing {
        let counts = try store.uploadCounts()
        let undelivered = (counts[.pending] ?? 0) + (counts[.failed] ?? 0) + (counts[.inFlight] ?? 0)
        var rows: [ProjectionListing.Day] = []
        for name in metricNames(catalog) {
            for (rollup, _, dirty) in try store.dailyProjections(metric: name, days: days) {
                let freshness = !dirty ? "fresh" : undelivered > 0 ? "stale" : "computing"
                rows.append(
                    ProjectionListing.Day(
                        rollup: WireDailyRollup(rollup, computedAt: rollup.computedAt?.description ?? ""),
                        freshness: freshness))
            }
        }
        let nights =
            metric == nil || metric == SleepNightCalculator.metric
            ? try store.sleepProjections(nights: days).map {
                WireSleepNight($0.night, computedAt: $0.night.computedAt?.description ?? "")
            } : []
        return ProjectionListing(
            from: days.lowerBound.description, to: days.upperBound.description, origin: .collector, days: rows,
            nights: nights)
    }

    private func computed(_ store: Store, directory: StoreDirectory, catalog: MetricCatalog, clock: Clock) throws
        -> ProjectionListing
    {
        let projections = try LocalProjections.configured(for: store, catalog: catalog)
        let computed = try projections.compute(store, metrics: metricNames(catalog), days: days)
        let now = clock.now().description
        return ProjectionListing(
            from: days.lowerBound.description, to: days.upperBound.description, origin: .local,
            days: computed.days.map {
                ProjectionListing.Day(rollup: WireDailyRollup($0, computedAt: now), freshness: "local")
            },
            nights: computed.nights.map { WireSleepNight($0, computedAt: now) })
    }
}
