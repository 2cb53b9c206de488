/// How monitoring files lay out their messages. Two are big-endian, as some devices write them,
/// and the ones sent with compressed-timestamp headers carry no timestamp field.
enum FITMonitoringLayouts {
    private typealias Field = FITFieldDefinition
    private typealias Monitoring = FITProfile.Monitoring

    static let info = FITMessageDefinition(
        "monitoring_info", FITProfile.MonitoringInfo.message,
        [
            Field(FITProfile.timestamp, .uint32),
            Field(FITProfile.MonitoringInfo.localTimestamp, .uint32),
            Field(FITProfile.MonitoringInfo.restingMetabolicRate, .uint16),
            Field(FITProfile.MonitoringInfo.activityType, .enumeration, count: 2),
        ])

    /// The day's first message: a full timestamp, and the counters at zero.
    static let midnight = FITMessageDefinition(
        "monitoring", Monitoring.message,
        [
            Field(FITProfile.timestamp, .uint32),
            Field(Monitoring.cycles, .uint32),
            Field(Monitoring.distance, .uint32),
            Field(Monitoring.activeCalories, .uint16),
            Field(Monitoring.activityType, .enumeration),
        ])

    /// Every minute: heart rate, and the current activity type and intensity packed in a byte.
    static let heartRate = FITMessageDefinition(
        "monitoring", Monitoring.message,
        [
            Field(Monitoring.timestamp16, .uint16),
            Field(Monitoring.heartRate, .uint8),
            Field(Monitoring.currentActivityTypeIntensity, .byte),
        ])

    /// Each active minute: one activity type's cumulative counters. activity_type is a field of
    /// its own, so decoders name cycles steps (walking, running) or strokes (cycling).
    static let counters = FITMessageDefinition(
        "monitoring", Monitoring.message,
        [
            Field(Monitoring.timestamp16, .uint16),
            Field(Monitoring.cycles, .uint32),
            Field(Monitoring.distance, .uint32),
            Field(Monitoring.activeTime, .uint32),
            Field(Monitoring.activeCalories, .uint16),
            Field(Monitoring.activityType, .enumeration),
        ])

    /// At the end of an hour with exercise: the day's intensity minutes so far.
    static let intensityMinutes = FITMessageDefinition(
        "monitoring", Monitoring.message,
        [
            Field(FITProfile.timestamp, .uint32),
            Field(Monitoring.moderateActivityMinutes, .uint16),
            Field(Monitoring.vigorousActivityMinutes, .uint16),
        ])

    static let stress = FITMessageDefinition(
        "stress_level", FITProfile.StressLevel.message,
        [
            Field(FITProfile.StressLevel.value, .sint16),
            Field(FITProfile.StressLevel.time, .uint32),
        ], bigEndian: true)

    static let respiration = FITMessageDefinition(
        "respiration_rate", FITProfile.RespirationRate.message,
        [
            Field(FITProfile.timestamp, .uint32),
            Field(FITProfile.RespirationRate.rate, .sint16),
        ], bigEndian: true)

    /// Sent with compressed-timestamp headers, a few seconds after a respiration rate.
    static let spO2 = FITMessageDefinition(
        "spo2_data", FITProfile.SpO2Data.message,
        [
            Field(FITProfile.SpO2Data.readingSpO2, .uint8),
            Field(FITProfile.SpO2Data.readingConfidence, .uint8),
            Field(FITProfile.SpO2Data.mode, .enumeration),
        ])

    static let restingHeartRate = FITMessageDefinition(
        "monitoring_hr_data", FITProfile.MonitoringHeartRateData.message,
        [
            Field(FITProfile.timestamp, .uint32),
            Field(FITProfile.MonitoringHeartRateData.restingHeartRate, .uint8),
            Field(FITProfile.MonitoringHeartRateData.currentDayRestingHeartRate, .uint8),
        ])
}
