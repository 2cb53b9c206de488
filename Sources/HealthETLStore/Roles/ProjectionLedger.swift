import HealthETLCore

/// The local copy of the daily rollups and sleep nights, and the keys changed since they were
/// computed.
public protocol ProjectionLedger: AnyObject {
    func dirtyProjectionKeys() throws -> (keys: [String: [CivilDate]], newestMark: Instant?)
    func markEveryProjectionDirty() throws
    func replaceDailyProjections(
        metric: String, days: ClosedRange<CivilDate>, with rollups: [DailyRollup], origin: String, markedBefore: Instant
    ) throws
    func replaceSleepProjections(nights: ClosedRange<CivilDate>, with fetched: [SleepNight], origin: String) throws
    func dailyProjections(metric: String, days: ClosedRange<CivilDate>) throws -> [(
        rollup: DailyRollup, origin: String, dirty: Bool
    )]
    func sleepProjections(nights: ClosedRange<CivilDate>) throws -> [(night: SleepNight, origin: String)]
}

extension Store: ProjectionLedger {}
