import HealthETLCore

/// Samples counted per metric number as they are written, a panel's components each under their
/// own metric; `total` counts what was written (a panel once).
struct MetricTally {
    private(set) var total = 0
    private var counts: [Int] = []
    /// What the metric numbers stand for (set once the export has read them).
    var names = ExportNames()

    mutating func count(_ sample: ExportedSample) {
        total += 1
        add(sample.metric)
        for component in sample.components { add(component.metric) }
    }

    private mutating func add(_ metric: Int32) {
        let index = Int(metric)
        if index >= counts.count { counts += [Int](repeating: 0, count: index - counts.count + 1) }
        counts[index] += 1
    }

    /// The counts by metric id.
    var byMetric: [String: Int] {
        var named: [String: Int] = [:]
        for (index, count) in counts.enumerated() where count > 0 {
            named[names.metrics.indices.contains(index) ? names.metrics[index] : "", default: 0] += count
        }
        return named
    }
}
