/// How activity files lay out their messages (field order is the file's choice).
enum FITActivityLayouts {
    private typealias Field = FITFieldDefinition

    static let event = FITMessageDefinition(
        "event", FITProfile.EventMessage.message,
        [
            Field(FITProfile.timestamp, .uint32),
            Field(FITProfile.EventMessage.event, .enumeration),
            Field(FITProfile.EventMessage.eventType, .enumeration),
            Field(FITProfile.EventMessage.eventGroup, .uint8),
        ])

    /// A record; rides add power.
    static func record(power: Bool) -> FITMessageDefinition {
        typealias Record = FITProfile.Record
        var fields = [
            Field(FITProfile.timestamp, .uint32),
            Field(Record.positionLat, .sint32),
            Field(Record.positionLong, .sint32),
            Field(Record.distance, .uint32),
            Field(Record.enhancedSpeed, .uint32),
            Field(Record.enhancedAltitude, .uint32),
            Field(Record.heartRate, .uint8),
            Field(Record.cadence, .uint8),
        ]
        if power { fields.append(Field(Record.power, .uint16)) }
        return FITMessageDefinition("record", Record.message, fields)
    }

    static let hrv = FITMessageDefinition(
        "hrv", FITProfile.HRV.message, [Field(FITProfile.HRV.time, .uint16, count: FITProfile.HRV.slots)])

    static let lap = FITMessageDefinition(
        "lap", FITProfile.Lap.message,
        [
            Field(FITProfile.timestamp, .uint32),
            Field(FITProfile.Lap.startTime, .uint32),
            Field(FITProfile.Lap.totalElapsedTime, .uint32),
            Field(FITProfile.Lap.totalTimerTime, .uint32),
            Field(FITProfile.Lap.totalDistance, .uint32),
            Field(FITProfile.Lap.totalCalories, .uint16),
            Field(FITProfile.Lap.totalAscent, .uint16),
            Field(FITProfile.messageIndex, .uint16),
            Field(FITProfile.Lap.avgHeartRate, .uint8),
            Field(FITProfile.Lap.maxHeartRate, .uint8),
            Field(FITProfile.Lap.event, .enumeration),
            Field(FITProfile.Lap.eventType, .enumeration),
            Field(FITProfile.Lap.lapTrigger, .enumeration),
            Field(FITProfile.Lap.sport, .enumeration),
        ])

    static let session = FITMessageDefinition(
        "session", FITProfile.Session.message,
        [
            Field(FITProfile.timestamp, .uint32),
            Field(FITProfile.Session.startTime, .uint32),
            Field(FITProfile.Session.totalElapsedTime, .uint32),
            Field(FITProfile.Session.totalTimerTime, .uint32),
            Field(FITProfile.Session.totalDistance, .uint32),
            Field(FITProfile.Session.totalCalories, .uint16),
            Field(FITProfile.Session.totalAscent, .uint16),
            Field(FITProfile.Session.totalDescent, .uint16),
            Field(FITProfile.Session.firstLapIndex, .uint16),
            Field(FITProfile.Session.numLaps, .uint16),
            Field(FITProfile.messageIndex, .uint16),
            Field(FITProfile.Session.avgHeartRate, .uint8),
            Field(FITProfile.Session.maxHeartRate, .uint8),
            Field(FITProfile.Session.event, .enumeration),
            Field(FITProfile.Session.eventType, .enumeration),
            Field(FITProfile.Session.sport, .enumeration),
            Field(FITProfile.Session.subSport, .enumeration),
            Field(FITProfile.Session.trigger, .enumeration),
        ])

    static let activity = FITMessageDefinition(
        "activity", FITProfile.Activity.message,
        [
            Field(FITProfile.timestamp, .uint32),
            Field(FITProfile.Activity.totalTimerTime, .uint32),
            Field(FITProfile.Activity.localTimestamp, .uint32),
            Field(FITProfile.Activity.numSessions, .uint16),
            Field(FITProfile.Activity.type, .enumeration),
            Field(FITProfile.Activity.event, .enumeration),
            Field(FITProfile.Activity.eventType, .enumeration),
        ])
}
