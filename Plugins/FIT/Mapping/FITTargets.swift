/// The mappings the most frequent values use (a second's heart rate, a beat, a minute's
/// monitoring), looked up once per file rather than once per value.
struct FITTargets: Sendable {
    let recordHeartRate: FITMappings.Target?
    let monitoringHeartRate: FITMappings.Target?
    let beatInterval: FITMappings.Target?
    let strapHeartRate: FITMappings.Target?
    let stress: FITMappings.Target?

    init(_ mappings: FITMappings) {
        recordHeartRate = mappings.field("record", "heart_rate")
        monitoringHeartRate = mappings.field("monitoring", "heart_rate")
        beatInterval = mappings.field("hrv", "time")
        strapHeartRate = mappings.field("hr", "filtered_bpm")
        stress = mappings.field("stress_level", "stress_level_value")
    }
}

/// A record's sport-dependent mappings (cycling or running power, cadence and speed), for the
/// sport they were looked up for.
struct FITSportTargets: Sendable {
    let sport: String
    let power: FITMappings.Target?
    let cadence: FITMappings.Target?
    let speed: FITMappings.Target?

    init(_ mappings: FITMappings, sport: String) {
        self.sport = sport
        power = mappings.field("record", "power", sport: sport)
        cadence = mappings.field("record", "cadence", sport: sport)
        speed = mappings.field("record", "speed", sport: sport)
    }
}
