import HealthETLCore
import HealthETLOutput

/// What `healthetl export` was asked for.
public struct ExportRequest: Sendable {
    public var format: ExportFormat
    /// Catalog names (ids or any alias); empty for every metric.
    public var metrics: [String]
    /// First and last local day (a sample's day is its start at its own recorded offset).
    public var from: CivilDate?
    public var to: CivilDate?
    /// One source's samples, by its exact name.
    public var source: String?
    /// The daily rollups and sleep nights instead of samples.
    public var daily: Bool
    /// FHIR as Bulk Data NDJSON files in the folder `output`.
    public var bulk: Bool
    /// A file, `-` for standard output, or a folder for bulk files.
    public var output: String
    /// How CSV cells that a spreadsheet would run as formulas are written.
    public var csvFormulas: CSVText.Formulas

    public init(
        format: ExportFormat, metrics: [String] = [], from: CivilDate? = nil, to: CivilDate? = nil,
        source: String? = nil, daily: Bool = false, bulk: Bool = false, output: String,
        csvFormulas: CSVText.Formulas = .neutralized
    ) {
        self.format = format
        self.metrics = metrics
        self.from = from
        self.to = to
        self.source = source
        self.daily = daily
        self.bulk = bulk
        self.output = output
        self.csvFormulas = csvFormulas
    }

    /// Catalog ids of the metrics asked for, in catalog-id order (all when none were named).
    /// - Throws: `ExportError.unknownMetric`.
    func metricIDs(_ catalog: MetricCatalog) throws -> [String] {
        guard !metrics.isEmpty else { return catalog.metrics.map(\.id).sorted() }
        var ids: [String] = []
        for name in metrics {
            guard let id = catalog.metric(named: name)?.id else { throw ExportError.unknownMetric(name) }
            if !ids.contains(id) { ids.append(id) }
        }
        return ids.sorted()
    }

    /// Whether `sample`'s local day (its start at its recorded offset) is within the range.
    func covers(_ sample: ExportedSample) -> Bool {
        guard from != nil || to != nil else { return true }
        // Compared as day numbers: no calendar date is made per sample.
        let day = LocalZone.fixed(utcOffsetSeconds: sample.utcOffsetSeconds ?? 0).wallClockMilliseconds(
            at: sample.start
        )
        .floorDivided(by: 86_400_000).quotient
        if let from, day < from.daysSinceEpoch { return false }
        if let to, day > to.daysSinceEpoch { return false }
        return true
    }

    /// Start times that can fall on the range's local days at any offset (the projections'
    /// window of each end day; an open end is unbounded).
    var startWindow: Range<Instant>? {
        guard from != nil || to != nil else { return nil }
        let lower = from.map { DailyRollupCalculator.sampleWindow(for: $0).lowerBound }
        let upper = to.map { DailyRollupCalculator.sampleWindow(for: $0).upperBound }
        return (lower ?? Instant(millisecondsSinceEpoch: .min))..<(upper ?? Instant(millisecondsSinceEpoch: .max))
    }

    /// The combinations no export can make, refused before anything is read.
    /// - Throws: `ExportError.unsupported`, saying why.
    func checkCombination() throws {
        if bulk && (format != .fhir || daily) {
            throw ExportError.unsupported("--bulk writes FHIR Bulk Data files: use it with --format fhir")
        }
        guard daily else { return }
        if format == .fhir {
            throw ExportError.unsupported(
                "--daily has no FHIR form (FHIR Observations carry samples): export the daily figures as csv or ndjson")
        }
        if source != nil {
            throw ExportError.unsupported(
                "--source selects samples; the daily figures are computed over every source (source priority decides which counts), so --daily takes no --source"
            )
        }
    }
}
