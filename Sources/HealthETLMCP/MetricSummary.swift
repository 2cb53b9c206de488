import HealthETLCore

/// A metric with samples: its first and last local day (the start at its recorded offset, UTC
/// without one) and its sample count.
public struct MetricSummary: Sendable, Equatable {
    public var metric: String
    public var firstDay: CivilDate
    public var lastDay: CivilDate
    public var samples: Int

    public init(metric: String, firstDay: CivilDate, lastDay: CivilDate, samples: Int) {
        self.metric = metric
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.samples = samples
    }
}
