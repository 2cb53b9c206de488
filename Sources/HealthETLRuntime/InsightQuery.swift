import HealthETLCore
import HealthETLPipeline
import HealthETLStore

/// `insights`: per rule metric and day the baseline, deviation and trend, and the insights they
/// make — as pulled from the collector (`follow`, `upload`, `sync`), or computed here (`local`,
/// and whenever the store has followed no collector).
public struct InsightQuery: Sendable {
    public var days: ClosedRange<CivilDate>
    public var local: Bool

    public init(days: ClosedRange<CivilDate>, local: Bool = false) {
        self.days = days
        self.local = local
    }

    /// The 28 days ending on `last` (default: today in UTC), or from `first` when given.
    public static func days(first: CivilDate?, last: CivilDate?, clock: Clock = .system) -> ClosedRange<CivilDate>? {
        ProjectionQuery.days(first: first, last: last, span: 28, clock: clock)
    }

    public func run(store directory: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system) throws
        -> InsightListing
    {
        let store = try Store(directory: directory, clock: clock)
        let calculator = InsightCalculator()
        let figures: [InsightDay]
        let origin: ProjectionListing.Origin
        let followed = try store.feedCursor() != nil
        if local || !followed {
            figures = try LocalProjections.configured(for: store, catalog: catalog)
                .insightDays(store, days: days, calculator: calculator)
            origin = .local
        } else {
            figures = try store.insightDays(days: days)
            origin = .collector
        }
        return InsightListing(
            from: days.lowerBound.description, to: days.upperBound.description, origin: origin,
            rules: calculator.rules.map(InsightListing.Rule.init), insights: calculator.insights(from: figures),
            days: figures)
    }
}
