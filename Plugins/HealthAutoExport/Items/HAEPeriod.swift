import HealthETLCore

/// The period a summarized point covers. HAE writes only the period's start (`date`) and not its
/// length, so the length is read from the start itself: a start at local midnight covers the day,
/// at a whole hour the hour, at a whole minute the minute, otherwise the instant. The rule looks at
/// nothing but the point, so the same point sent again always gets the same end and the same id.
enum HAEPeriod {
    static func seconds(startingAt start: Timestamp) -> Int64 {
        let local = start.instant.millisecondsSinceEpoch + Int64(start.utcOffsetSeconds ?? 0) * 1000
        let millisecondOfDay = local.floorDivided(by: 86_400_000).remainder
        if millisecondOfDay == 0 { return 86_400 }
        if millisecondOfDay % 3_600_000 == 0 { return 3_600 }
        if millisecondOfDay % 60_000 == 0 { return 60 }
        return 0
    }

    /// The end of the period starting at `start`.
    static func end(startingAt start: Timestamp) -> Timestamp {
        Timestamp(
            instant: start.instant.adding(seconds: seconds(startingAt: start)), utcOffsetSeconds: start.utcOffsetSeconds
        )
    }
}
