import HealthETLCore
import HealthETLMCP
import HealthETLPipeline
import HealthETLStore

/// What `healthetl mcp` reads: this device's store, with the daily figures, sleep nights and
/// insights computed from its samples by the collector's own calculators (what `projections
/// --local` and `insights --local` show). The actor owns the store's one connection.
public actor StoreHealthReader: HealthDataReader {
    public nonisolated let origin = "store"
    public nonisolated let holdsWorkouts = true

    private let store: Store
    private let catalog: MetricCatalog
    private let clock: Clock

    public init(directory: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system) throws {
        store = try Store(directory: directory, clock: clock)
        self.catalog = catalog
        self.clock = clock
    }

    public func metricSummaries() throws -> [MetricSummary] {
        try store.metricSummaries().map {
            MetricSummary(metric: $0.metric, firstDay: $0.firstLocal.utcDay, lastDay: $0.lastLocal.utcDay, samples: $0.samples)
        }
    }

    public func dailyRollups(metric: String, days: ClosedRange<CivilDate>) throws -> [DailyRollup] {
        try computed([metric], days: days).rollups
    }

    public func sleepNights(days: ClosedRange<CivilDate>) throws -> [SleepNight] {
        try computed([SleepNightCalculator.metric], days: days).nights
    }

    public func workouts(starts: Range<Instant>) throws -> [WorkoutListing] {
        try store.workoutListings(starts: starts)
    }

    public func samples(metric: String, starts: Range<Instant>, after cursor: SampleCursor?, limit: Int) throws
        -> [Sample]
    {
        try store.samples(metric: metric, starts: starts, after: cursor.map { ($0.start, $0.id) }, limit: limit)
    }

    public func sources() throws -> SourceSummary {
        let configuration = try StoreConfiguration.load(store: store.directory.path)
        return SourceSummary(
            sources: try store.sourceSummaries().map {
                SourceSummary.Source(name: $0.source, samples: $0.samples, devices: $0.devices)
            }, priority: configuration.sourcePriority ?? [], priorityByMetric: try store.sourcePriorities())
    }

    public func status() throws -> ReaderStatus {
        let status = try store.status()
        let arrivals = try store.lastArrivals()
        return ReaderStatus(
            projections: "computed_from_samples", daysAwaitingRefresh: 0,
            lastImport: arrivals.importFinished?.description, lastUpload: status.queue.lastUpload,
            lastReceived: arrivals.sampleCommitted?.description, samples: status.samples.total,
            uploadsPending: status.queue.pending + status.queue.failed + status.queue.inFlight)
    }

    /// Rollups and nights a quarter at a time, so memory holds one quarter's samples of one metric.
    private func computed(_ metrics: [String], days: ClosedRange<CivilDate>) throws
        -> (rollups: [DailyRollup], nights: [SleepNight])
    {
        let projections = try LocalProjections.configured(for: store, catalog: catalog)
        let now = clock.now()
        var rollups: [DailyRollup] = []
        var nights: [SleepNight] = []
        try projections.computeInPieces(store, metrics: metrics, days: days) { pieceDays, pieceNights, _ in
            try Task.checkCancellation()
            rollups += pieceDays
            nights += pieceNights
        }
        for index in rollups.indices { rollups[index].computedAt = now }
        for index in nights.indices { nights[index].computedAt = now }
        return (rollups, nights)
    }
}
