/// How many samples one source has on one local day (its start at its recorded offset): the
/// report's coverage, where a day without any is a gap.
public struct SourceDayCount: Sendable, Equatable {
    public var source: String
    public var day: CivilDate
    public var samples: Int

    public init(source: String, day: CivilDate, samples: Int) {
        self.source = source
        self.day = day
        self.samples = samples
    }
}
