import HealthETLCore

/// Turns one input file's FIT messages into records, in order: the device from `file_id`, the
/// workout from `session` with its laps and route, the samples of `record`, `hrv` and the
/// wellness messages, sleep stages and body measurements. Messages with health data it does not
/// map are counted by name; metadata messages (file_id, event, device_info…) are not records.
///
/// State spans the FIT files chained in one input file (a pool swim's heart rate comes in a
/// second file), never two input files.
struct FITMessageMapper {
    let mappings: FITMappings
    let targets: FITTargets
    /// The record mappings of the activity's sport, once it is known.
    var sportTargets: FITSportTargets?
    let names: FITProfileNames
    /// The person whose weight and blood pressure are imported (`user_profile_index`).
    let person: UInt64
    var device = FITDevice(
        manufacturer: nil, product: nil, productName: nil, serial: nil, names: FITProfileNames.bundled)
    /// Problems that lost nothing, and what was not mapped, by kind.
    var warnings: [String: Int] = [:]

    // Activity state.
    var sport: String?
    var subSport: String?
    var lastRecordTime: UInt32?
    var route: [RoutePoint] = []
    var laps: [WorkoutEvent] = []
    var pauses: [WorkoutEvent] = []
    /// Where `hrv` intervals count from: the activity's first timer start or first time.
    var beatClock: Int64?
    /// Seconds a `record` gave a heart rate for: an `hr` value in one of them is that one again.
    var recordHeartRateSeconds: Set<UInt32> = []
    /// The last `hr` message with a time: its time (FIT milliseconds) and its first event time.
    var heartRateAnchor: (milliseconds: Int64, event: UInt32)?
    /// The last event time read, which the 12-bit parts count on from (1/1024 s).
    var lastHeartRateEvent: UInt32?
    /// The local time's offset from UTC, once an `activity` or `monitoring_info` message told it.
    var utcOffsetSeconds: Int32?

    // Wellness state.
    var counters: [FITCounterKey: FITCounterReading] = [:]
    /// The last monitoring message's time, and whether the file's counting began at local
    /// midnight (its first monitoring message fell on one), so every counter started from zero.
    var lastMonitoringTime: UInt32?
    var firstMonitoringTime: UInt32?
    var countsFromMidnight = false
    var sleep: (level: UInt64, start: UInt32)?
    var lastTime: UInt32?

    /// A route longer than this (about 70 h at one point a second) keeps its first points.
    static let maximumRoutePoints = 250_000

    init(mappings: FITMappings, names: FITProfileNames, person: UInt64 = 0) {
        self.mappings = mappings
        self.targets = FITTargets(mappings)
        self.names = names
        self.person = person
    }

    /// Maps one message, handing on what it becomes.
    mutating func take(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        if let time = message.timestamp, FITTime.isAbsolute(time) { lastTime = max(lastTime ?? 0, time) }
        switch message.globalNumber {
        case FITProfile.fileID: readFileID(message)
        case FITProfile.event: readEvent(message)
        case FITProfile.sport: sport = enumName(message, FITProfile.Sport.sport, in: names.sport) ?? sport
        case FITProfile.activity, FITProfile.monitoringInfo: readLocalTime(message)
        case FITProfile.record: try readRecord(message, emit: emit)
        case FITProfile.lap: readLap(message)
        case FITProfile.session: try readSession(message, emit: emit)
        case FITProfile.hrv: try readBeats(message, emit: emit)
        case FITProfile.heartRates: try readHeartRates(message, emit: emit)
        case FITProfile.monitoring: try readMonitoring(message, emit: emit)
        case FITProfile.stressLevel: try readStress(message, emit: emit)
        case FITProfile.respirationRate, FITProfile.spo2Data, FITProfile.monitoringHRData, FITProfile.hrvStatusSummary:
            try readWellnessValue(message, emit: emit)
        case FITProfile.sleepLevel: try readSleepLevel(message, emit: emit)
        case FITProfile.weightScale, FITProfile.bloodPressure: try readBody(message, emit: emit)
        default:
            let name = FITMessageNames.name(of: message.globalNumber)
            if FITProfile.healthMessages.contains(name) { warnings["not_mapped:" + name, default: 0] += 1 }
        }
    }

    /// The input file is over: a sleep stage still open ends at the file's last time.
    mutating func finish(emit: (FITItem) throws -> Void) throws {
        try closeSleep(at: lastTime, emit: emit)
    }

    // MARK: - Shared

    /// A record of the metric `message.field` maps to, or `nil` (and nothing) when none does.
    func record(
        _ message: String, _ field: String, value: Double, start: UInt32, milliseconds: Int64 = 0, end: UInt32? = nil,
        sport: String? = nil
    ) -> RawRecord? {
        record(
            mappings.field(message, field, sport: sport), value: value, start: start, milliseconds: milliseconds,
            end: end)
    }

    /// A record of `target`'s metric, or `nil` (and nothing) when no mapping names one.
    func record(
        _ target: FITMappings.Target?, value: Double, start: UInt32, milliseconds: Int64 = 0, end: UInt32? = nil
    ) -> RawRecord? {
        guard let mapping = target else { return nil }
        return RawRecord(
            type: mapping.identifier, sourceName: device.sourceName, device: device.description, unit: mapping.unit,
            value: .number(value), start: time(start, milliseconds: milliseconds),
            end: end.map { time($0) } ?? time(start, milliseconds: milliseconds))
    }

    /// A FIT time as a record's time, at the file's UTC offset when it tells one: device-relative
    /// ones date nothing, and say so.
    func time(_ value: UInt32, milliseconds: Int64 = 0) -> RawTime {
        guard FITTime.isAbsolute(value) else { return .deviceRelative(value) }
        return .timestamp(
            Timestamp(instant: FITTime.instant(value, milliseconds: milliseconds), utcOffsetSeconds: utcOffsetSeconds))
    }

    func enumName(_ message: FITMessage, _ field: UInt8, in table: [String: String]) -> String? {
        message.unsigned(field).map { table[String($0)] ?? String($0) }
    }

    private mutating func readFileID(_ message: FITMessage) {
        device = FITDevice(
            manufacturer: message.unsigned(FITProfile.FileID.manufacturer),
            product: message.unsigned(FITProfile.FileID.product),
            productName: message.string(FITProfile.FileID.productName),
            serial: message.unsigned(FITProfile.FileID.serialNumber), names: names)
    }

    /// `activity` and `monitoring_info` carry the local time beside UTC: their difference is the
    /// wearer's UTC offset, rounded to a quarter hour.
    mutating func readLocalTime(_ message: FITMessage) {
        let localField = message.globalNumber == FITProfile.activity ? FITProfile.Activity.localTimestamp : 0
        guard let utc = message.timestamp, FITTime.isAbsolute(utc),
            let local = message.unsigned(localField), local >= FITTime.minimumAbsolute
        else { return }
        let offset = (Int64(local) - Int64(utc)) / 900 * 900
        if abs(offset) <= 18 * 3600 { utcOffsetSeconds = Int32(offset) }
    }
}
