/// A metric with samples: the local days (the start at its recorded offset, UTC without one) of
/// its first and last sample by start, and its sample count. The store and both collector engines
/// answer with it.
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
