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
    private var cache = ProjectionCache()
    /// What the whole-store reads last answered, with the store's `data_version` then.
    private var summaries: (version: Int64, value: [MetricSummary])?
    private var sourceList: (version: Int64, value: SourceSummary)?
    private var lastStatus: (version: Int64, value: ReaderStatus)?

    /// The page cache of this read-only connection, in MiB.
    static let pageCacheMebibytes = 2
    /// Days of samples computed at a time: memory holds a week of one metric's samples.
    static let daysPerPiece: Int64 = 7

    public init(directory: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system) throws {
        store = try Store(directory: directory, clock: clock)
        try store.limitPageCache(mebibytes: Self.pageCacheMebibytes)
        self.catalog = catalog
        self.clock = clock
    }

    public func metricSummaries() throws -> [MetricSummary] {
        let version = try store.dataVersion()
        if let summaries, summaries.version == version { return summaries.value }
        let value = try store.metricSummaries()
        summaries = (version, value)
        return value
    }

    public func dailyRollups(metric: String, days: ClosedRange<CivilDate>) throws -> [DailyRollup] {
        let projections = try current()
        let (held, missing) = cache.rollups(metric, days)
        var rollups = held
        for run in missing {
            let computed = try computed(projections, [metric], days: run).rollups
            cache.add(computed, metric: metric, days: run)
            rollups += computed
        }
        return rollups.sorted { $0.day < $1.day }
    }

    public func sleepNights(days: ClosedRange<CivilDate>) throws -> [SleepNight] {
        let projections = try current()
        let (held, missing) = cache.nights(days)
        var nights = held
        for run in missing {
            let computed = try computed(projections, [SleepNightCalculator.metric], days: run).nights
            cache.add(computed, days: run)
            nights += computed
        }
        return nights.sorted { $0.night < $1.night }
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
        let version = try store.dataVersion()
        let sources =
            try sourceList.flatMap { $0.version == version ? $0.value.sources : nil } ?? store.sourceSummaries()
        let value = SourceSummary(
            sources: sources, priority: configuration.sourcePriority ?? [],
            priorityByMetric: try store.sourcePriorities())
        sourceList = (version, value)
        return value
    }

    public func status() throws -> ReaderStatus {
        let version = try store.dataVersion()
        if let lastStatus, lastStatus.version == version { return lastStatus.value }
        let status = try store.status()
        let arrivals = try store.lastArrivals()
        let value = ReaderStatus(
            projections: "computed_from_samples", daysAwaitingRefresh: 0,
            lastImport: arrivals.importFinished?.description, lastUpload: status.queue.lastUpload,
            lastReceived: arrivals.sampleCommitted?.description, samples: status.samples.total,
            uploadsPending: status.queue.pending + status.queue.failed + status.queue.inFlight)
        lastStatus = (version, value)
        return value
    }

    /// The projections as configured now, with the cache emptied when the store or the source
    /// priority changed since it was filled.
    private func current() throws -> LocalProjections {
        let projections = try LocalProjections.configured(for: store, catalog: catalog)
        cache.keep(
            for: ProjectionCache.Basis(
                dataVersion: try store.dataVersion(), priority: projections.priority.preferred,
                sourcesByMetric: projections.sourcesByMetric))
        return projections
    }

    /// Rollups and nights `daysPerPiece` days at a time, so memory holds that many days of one metric's samples.
    private func computed(_ projections: LocalProjections, _ metrics: [String], days: ClosedRange<CivilDate>) throws
        -> (rollups: [DailyRollup], nights: [SleepNight])
    {
        let now = clock.now()
        var rollups: [DailyRollup] = []
        var nights: [SleepNight] = []
        try projections.computeInPieces(store, metrics: metrics, days: days, daysPerPiece: Self.daysPerPiece) {
            pieceDays, pieceNights, _ in
            try Task.checkCancellation()
            rollups += pieceDays
            nights += pieceNights
        }
        for index in rollups.indices { rollups[index].computedAt = now }
        for index in nights.indices { nights[index].computedAt = now }
        return (rollups, nights)
    }
}
