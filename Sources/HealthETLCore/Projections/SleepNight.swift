/// One night of sleep from one source: the sleep that ends in a local morning.
public struct SleepNight: Hashable, Sendable {
    /// The local date of the morning the sleep ends.
    public var night: CivilDate
    /// The one source the night is read from (the best by `SourcePriority`).
    public var source: String
    /// Time in bed or asleep (union of both).
    public var inBedSeconds: Double
    /// Time asleep in any stage, minus the time marked awake inside it.
    public var asleepSeconds: Double
    public var coreSeconds: Double
    public var deepSeconds: Double
    public var remSeconds: Double
    public var awakeSeconds: Double
    /// First start and last end of the samples the night was read from.
    public var start: Instant
    public var end: Instant
    /// When it was computed, where the night was read from a sink (`nil` when computed here).
    public var computedAt: Instant?

    public init(
        night: CivilDate, source: String, inBedSeconds: Double, asleepSeconds: Double,
        coreSeconds: Double, deepSeconds: Double, remSeconds: Double, awakeSeconds: Double,
        start: Instant, end: Instant, computedAt: Instant? = nil
    ) {
        self.computedAt = computedAt
        self.night = night
        self.source = source
        self.inBedSeconds = inBedSeconds
        self.asleepSeconds = asleepSeconds
        self.coreSeconds = coreSeconds
        self.deepSeconds = deepSeconds
        self.remSeconds = remSeconds
        self.awakeSeconds = awakeSeconds
        self.start = start
        self.end = end
    }
}
