import HealthETLCore

/// One night of sleep, as `GET /v1/projections/sleep` returns it.
public struct WireSleepNight: Codable, Sendable, Equatable {
    /// YYYY-MM-DD: the local date of the morning the sleep ended.
    public var night: String
    /// The one source the night is taken from (by priority).
    public var source: String
    public var inBedSeconds: Double
    public var asleepSeconds: Double
    public var coreSeconds: Double
    public var deepSeconds: Double
    public var remSeconds: Double
    public var awakeSeconds: Double
    public var start: String
    public var end: String
    public var computedAt: String

    public init(
        night: String, source: String, inBedSeconds: Double, asleepSeconds: Double, coreSeconds: Double,
        deepSeconds: Double, remSeconds: Double, awakeSeconds: Double, start: String, end: String, computedAt: String
    ) {
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
        self.computedAt = computedAt
    }

    private enum CodingKeys: String, CodingKey {
        case night, source, start, end
        case inBedSeconds = "in_bed_s"
        case asleepSeconds = "asleep_s"
        case coreSeconds = "core_s"
        case deepSeconds = "deep_s"
        case remSeconds = "rem_s"
        case awakeSeconds = "awake_s"
        case computedAt = "computed_at"
    }
}

extension WireSleepNight {
    /// The wire form of a computed night.
    public init(_ night: SleepNight, computedAt: String) {
        self.init(
            night: night.night.description, source: night.source, inBedSeconds: night.inBedSeconds,
            asleepSeconds: night.asleepSeconds, coreSeconds: night.coreSeconds, deepSeconds: night.deepSeconds,
            remSeconds: night.remSeconds, awakeSeconds: night.awakeSeconds, start: night.start.description,
            end: night.end.description, computedAt: computedAt)
    }
}

extension SleepNight {
    /// A night as a sink served it; `nil` when a date or time in it is not RFC 3339 text.
    public init?(_ wire: WireSleepNight) {
        guard let night = CivilDate(text: wire.night), let start = TimestampParser.parse(wire.start),
            let end = TimestampParser.parse(wire.end), let computedAt = TimestampParser.parse(wire.computedAt)
        else { return nil }
        self.init(
            night: night, source: wire.source, inBedSeconds: wire.inBedSeconds, asleepSeconds: wire.asleepSeconds,
            coreSeconds: wire.coreSeconds, deepSeconds: wire.deepSeconds, remSeconds: wire.remSeconds,
            awakeSeconds: wire.awakeSeconds, start: start.instant, end: end.instant, computedAt: computedAt.instant)
    }
}
