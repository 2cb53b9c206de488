import HealthETLCore

/// What a synthetic stream is, fixed when it is created and kept with it in the store, so a
/// restarted run continues the same simulation whatever options it is given.
public struct SyntheticSettings: Codable, Equatable, Sendable {
    public var seed: UInt64
    /// 1-based: person 1 of seed 1 is the person the sample exports are made of.
    public var person: Int
    /// The simulated "now" when the stream was created: history ends here, the live tail starts.
    public var originMilliseconds: Int64
    /// Days of history before the origin that the cold lane backfills.
    public var historyDays: Int
    /// Samples ending within this window before the origin arrive in the hot lane.
    public var hotWindowSeconds: Int64
    /// Deletions and edits the change lane makes per simulated day.
    public var changesPerDay: Int
    /// The day's size (see `SampleDensity`); nil for the natural day of about 990 records.
    public var samplesPerDay: Int?
    public var faults: FaultRates
    /// The live clock, once the stream has run with `--follow`.
    public var clock: SimulatedClock?

    public init(
        seed: UInt64, person: Int = 1, origin: Instant, historyDays: Int = 30, hotWindowSeconds: Int64 = 7 * 86_400,
        changesPerDay: Int = 4, samplesPerDay: Int? = nil, faults: FaultRates = FaultRates()
    ) {
        self.seed = seed
        self.person = person
        self.originMilliseconds = origin.millisecondsSinceEpoch
        self.historyDays = historyDays
        self.hotWindowSeconds = hotWindowSeconds
        self.changesPerDay = changesPerDay
        self.samplesPerDay = samplesPerDay
        self.faults = faults
    }

    public var origin: Instant { Instant(millisecondsSinceEpoch: originMilliseconds) }

    /// `synthetic:seed-1:person-1`.
    public var streamName: String { "synthetic:seed-\(seed):person-\(person)" }

    private enum CodingKeys: String, CodingKey {
        case seed, person, faults, clock
        case originMilliseconds = "origin_ms"
        case historyDays = "history_days"
        case hotWindowSeconds = "hot_window_s"
        case changesPerDay = "changes_per_day"
        case samplesPerDay = "samples_per_day"
    }
}
