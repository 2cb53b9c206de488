import HealthETLCore

/// What the records of a batch share with the one before them: records come grouped by type and
/// source, so each is compared with the last instead of looked up. A local value while a batch
/// is normalized: read out of a class, every comparison would retain and release its strings.
struct RecordRun {
    private var lastType: String?
    private var lastMetric: ResolvedMetric?
    /// The covered range of the last sample's source and metric, not yet in the batch's ranges.
    private var lastCoverage: SnapshotCoverage?
    /// The last metadata rendered as JSON: the points of one series (or one device's records)
    /// repeat it, and comparing is far cheaper than rendering.
    private var lastMetadata: (entries: [MetadataEntry], json: String?) = ([], nil)

    /// The catalog entry for a type, remembered while the same type repeats.
    mutating func metric(named type: String, in catalog: MetricCatalog) -> ResolvedMetric? {
        if ExactText.sameBytes(lastType, type) { return lastMetric }
        let metric = catalog.metric(named: type)
        lastType = type
        lastMetric = metric
        return metric
    }

    mutating func metadataJSON(_ entries: [MetadataEntry]) -> String? {
        guard !entries.isEmpty else { return nil }
        if entries != lastMetadata.entries {
            lastMetadata = (entries, JSONText.pairs(entries))
        }
        return lastMetadata.json
    }

    /// Widens the covered range of the sample's source and metric: the last range is extended
    /// in place (moved out and back, so its strings are neither copied nor retained), without
    /// hashing.
    mutating func cover(_ sample: Sample, in coverage: inout [CoverageKey: SnapshotCoverage]) {
        if var last = lastCoverage.take() {
            if ExactText.sameBytes(last.sourceName, sample.sourceName), ExactText.sameBytes(last.metric, sample.metric)
            {
                if sample.start < last.earliestStart { last.earliestStart = sample.start }
                if sample.start > last.latestStart { last.latestStart = sample.start }
                lastCoverage = last
                return
            }
            Self.add(last, to: &coverage)
        }
        let point = SnapshotCoverage(
            sourceName: sample.sourceName, metric: sample.metric, earliestStart: sample.start, latestStart: sample.start
        )
        let key = CoverageKey(source: sample.sourceName, metric: sample.metric)
        lastCoverage = coverage.removeValue(forKey: key).map { $0.union(point) } ?? point
    }

    /// Adds the last sample's range to the batch's ranges, at the batch's end: the next batch
    /// starts a range of its own.
    mutating func settleCoverage(into coverage: inout [CoverageKey: SnapshotCoverage]) {
        if let last = lastCoverage.take() { Self.add(last, to: &coverage) }
    }

    private static func add(_ range: SnapshotCoverage, to coverage: inout [CoverageKey: SnapshotCoverage]) {
        let key = CoverageKey(source: range.sourceName, metric: range.metric)
        coverage[key] = coverage[key].map { $0.union(range) } ?? range
    }
}
