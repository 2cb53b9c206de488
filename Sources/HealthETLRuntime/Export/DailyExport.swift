import HealthETLCore
import HealthETLOutput
import HealthETLPipeline
import HealthETLStore

/// `healthetl export --daily`: the daily rollups and sleep nights, computed here with the
/// collector's own code (`projections --local`), or as the collector computed them
/// (`--from-collector`), written as CSV or NDJSON.
public struct DailyExport {
    public let request: ExportRequest

    public init(request: ExportRequest) {
        self.request = request
    }

    /// Computed from the store. Without `from`/`to` the range is the store's first to last sample.
    public func run(
        store directory: StoreDirectory, catalog: MetricCatalog, clock: Clock = .system,
        progress: ((Int, String) -> Void)? = nil
    ) throws -> ExportSummary {
        let started = clock.now()
        try request.checkCombination()
        let store = try Store(directory: directory, clock: clock)
        let metrics = try request.metricIDs(catalog)
        let projections = try LocalProjections.configured(for: store, catalog: catalog)
        guard let stored = try store.sampleLocalDays() else {
            return try write(catalog, started: started, clock: clock) { _, _ in }
        }
        // A day either side: a zone other than the recorded offset can move a sample's day by one.
        let first = request.from ?? stored.lowerBound.adding(days: -1)
        let last = request.to ?? stored.upperBound.adding(days: 1)
        guard first <= last else { return try write(catalog, started: started, clock: clock) { _, _ in } }
        return try write(catalog, started: started, clock: clock) { rollup, night in
            var written = 0
            try projections.computeInPieces(store, metrics: metrics, days: first...last) { days, nights, through in
                for day in days { try rollup(day) }
                for sleep in nights { try night(sleep) }
                written += days.count
                progress?(written, through.description)
            }
        }
    }

    /// As the collector computed them, read through the sink's projection API.
    public func run(
        collector sink: any SampleSink, catalog: MetricCatalog, clock: Clock = .system
    ) throws -> ExportSummary {
        let started = clock.now()
        try request.checkCombination()
        guard let from = request.from, let to = request.to else {
            throw ExportError.unsupported(
                "--from-collector needs --from and --to: the collector is asked for a range of days")
        }
        let metrics = try request.metricIDs(catalog)
        let fetched = try BlockingTask.run { () async throws -> ([DailyRollup], [SleepNight]) in
            do {
                var rollups: [DailyRollup] = []
                for metric in metrics {
                    rollups += try await sink.dailyRollups(metric: metric, from: from, to: to)
                }
                let nights =
                    metrics.contains(SleepNightCalculator.metric)
                    ? try await sink.sleepNights(from: from, to: to) : []
                try await sink.shutdown()
                return (rollups, nights)
            } catch {
                try? await sink.shutdown()
                throw error
            }
        }
        return try write(catalog, started: started, clock: clock) { rollup, night in
            for day in fetched.0 { try rollup(day) }
            for sleep in fetched.1 { try night(sleep) }
        }
    }

    /// Writes what `produce` hands over, rollups and nights, in the requested format.
    private func write(
        _ catalog: MetricCatalog, started: Instant, clock: Clock,
        produce: (_ rollup: (DailyRollup) throws -> Void, _ night: (SleepNight) throws -> Void) throws -> Void
    ) throws -> ExportSummary {
        let units = SampleExport.units(catalog)
        var format: any DailyFormat
        switch request.format {
        case .csv: format = DailyCSVFormat(units: units, formulas: request.csvFormulas)
        case .ndjson: format = DailyNDJSONFormat(units: units)
        case .fhir: preconditionFailure("checkCombination refuses --daily --format fhir")
        }
        let output = try ExportOutput(path: request.output)
        try output.append { format.begin(into: &$0) }
        var byMetric: [String: Int] = [:]
        var nights = 0
        try produce(
            { rollup in
                try output.append { format.append(rollup, into: &$0) }
                byMetric[rollup.metric, default: 0] += 1
            },
            { night in
                try output.append { format.append(night, into: &$0) }
                nights += 1
            })
        try output.finish()
        return ExportSummary(
            format: request.format, content: "daily", output: request.output,
            files: request.output == "-" ? [] : [request.output], records: byMetric.values.reduce(0, +),
            byMetric: byMetric, observations: nil, sleepNights: nights, withoutLOINC: nil, bytes: output.bytesWritten,
            seconds: started.seconds(until: clock.now()))
    }
}
