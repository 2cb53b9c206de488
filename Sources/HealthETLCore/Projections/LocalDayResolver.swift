import Foundation

/// Finds the zone each sample's local day is read in, resolving each IANA name once.
///
/// The order follows the metric catalog: the sample's own `HKTimeZone` (the zone it was recorded
/// in), else the configured zone (the person's home zone: an Apple export writes every date at the
/// exporting phone's offset, so a recorded offset can be from another trip), else the recorded
/// offset, else UTC. An `HKTimeZone` that Foundation does not know falls through to the next rule.
///
/// A value type with its own cache: make one per computation, not one per record.
public struct LocalDayResolver: Sendable {
    public var configuredZone: TimeZone?
    private var zonesByName: [String: LocalZone?] = [:]

    public init(configuredZone: TimeZone? = nil) {
        self.configuredZone = configuredZone
    }

    /// The zone a sample's local day is read in.
    public mutating func zone(of sample: Sample) -> LocalZone {
        zone(timeZone: sample.timeZone, utcOffsetSeconds: sample.utcOffsetSeconds)
    }

    /// The zone of a sample with this `HKTimeZone` and recorded offset.
    mutating func zone(timeZone: String?, utcOffsetSeconds: Int32?) -> LocalZone {
        if let timeZone, let zone = namedZone(timeZone) {
            return zone
        }
        if let configuredZone { return .named(configuredZone) }
        if let utcOffsetSeconds { return .fixed(utcOffsetSeconds: utcOffsetSeconds) }
        return .utc
    }

    /// The local date a sample starts on.
    public mutating func localDay(of sample: Sample) -> CivilDate {
        zone(of: sample).localDay(of: sample.start)
    }

    private mutating func namedZone(_ name: String) -> LocalZone? {
        if let cached = zonesByName[name] { return cached }
        let zone = TimeZone(identifier: name).map(LocalZone.named)
        zonesByName[name] = zone
        return zone
    }
}
