import HealthETLCore

/// Activity files: the timer's events, one-second `record`s, `hrv` beat intervals, laps and the
/// sessions that become workouts.
extension FITMessageMapper {
    /// Semicircles (2³¹ to 180°) to degrees.
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    mutating func readEvent(_ message: FITMessage) {
        guard message.unsigned(FITProfile.Event.event) == FITProfile.Event.timer, let time = message.timestamp,
            let type = message.unsigned(FITProfile.Event.eventType)
        else { return }
        if type == FITProfile.Event.start {
            if beatClock == nil {
                beatClock = Int64(time) * 1000
            } else if FITTime.isAbsolute(time) {
                pauses.append(WorkoutEvent(type: "resume", date: FITTime.instant(time)))
            }
        } else if type == FITProfile.Event.stopAll || type == FITProfile.Event.stop, FITTime.isAbsolute(time) {
            pauses.append(WorkoutEvent(type: "pause", date: FITTime.instant(time)))
        }
    }

    mutating func readRecord(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        guard let time = message.timestamp else {
            warnings["record_without_time", default: 0] += 1
            return
        }
        if beatClock == nil { beatClock = Int64(time) * 1000 }
        // Some devices write a second twice: its first record counts.
        guard time != lastRecordTime else {
            warnings["repeated_record_time", default: 0] += 1
            return
        }
        lastRecordTime = time
        let speed =
            message.number(FITProfile.Record.enhancedSpeed, scale: 1000)
            ?? message.number(FITProfile.Record.speed, scale: 1000)
        addRoutePoint(message, time: time, speed: speed)
        if let rate = message.unsigned(FITProfile.Record.heartRate) {
            // 0 is what a device writes with no sensor worn: no measurement.
            if rate == 0 {
                warnings["heart_rate_zero_no_sensor", default: 0] += 1
            } else if let record = record(targets.recordHeartRate, value: Double(rate), start: time) {
                recordHeartRateSeconds.insert(time)
                try emit(.record(record))
            }
        }
        // Power, cadence and speed name a metric only in a sport (cycling power, running speed).
        guard let sport else { return }
        if sportTargets?.sport != sport { sportTargets = FITSportTargets(mappings, sport: sport) }
        if let power = message.number(FITProfile.Record.power),
            let record = record(sportTargets?.power, value: power, start: time)
        {
            try emit(.record(record))
        }
        if let cadence = message.number(FITProfile.Record.cadence),
            let record = record(sportTargets?.cadence, value: cadence, start: time)
        {
            try emit(.record(record))
        }
        if let speed, let record = record(sportTargets?.speed, value: speed, start: time) {
            try emit(.record(record))
        }
    }

    private mutating func addRoutePoint(_ message: FITMessage, time: UInt32, speed: Double?) {
        guard FITTime.isAbsolute(time), let latitude = message.number(FITProfile.Record.positionLat),
            let longitude = message.number(FITProfile.Record.positionLong)
        else { return }
        guard route.count < Self.maximumRoutePoints else {
            warnings["route_points_beyond_limit", default: 0] += 1
            return
        }
        let point = RoutePoint(
            instant: FITTime.instant(time), latitude: latitude * Self.degreesPerSemicircle,
            longitude: longitude * Self.degreesPerSemicircle,
            elevationMeters: message.number(FITProfile.Record.enhancedAltitude, scale: 5, offset: 500)
                ?? message.number(FITProfile.Record.altitude, scale: 5, offset: 500),
            speedMetersPerSecond: speed)
        if point.isOnEarth { route.append(point) }
    }

    /// Each valid entry of `time` is one interval between beats; they follow each other from the
    /// activity's start, which dates them.
    mutating func readBeats(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        let count = message.count(FITProfile.HRV.time)
        guard let clock = beatClock else {
            warnings["beat_interval_without_time", default: 0] += count
            return
        }
        var at = clock
        for element in 0..<count {
            guard let seconds = message.number(FITProfile.HRV.time, element: element, scale: 1000) else { continue }
            guard let step = FITTime.milliseconds(seconds), case (let next, false) = at.addingReportingOverflow(step)
            else {
                warnings["beat_interval_out_of_range", default: 0] += 1
                continue
            }
            at = next
            let whole = UInt32(clamping: at / 1000)
            guard let record = record(targets.beatInterval, value: seconds, start: whole, milliseconds: at % 1000)
            else { return }
            try emit(.record(record))
        }
        beatClock = at
    }

    mutating func readLap(_ message: FITMessage) {
        guard let start = message.unsigned(FITProfile.Lap.startTime).map(UInt32.init(truncatingIfNeeded:)),
            FITTime.isAbsolute(start)
        else { return }
        var metadata: [MetadataEntry] = []
        if let distance = message.number(FITProfile.Lap.totalDistance, scale: 100) {
            metadata.append(MetadataEntry(key: "distance_m", value: String(distance)))
        }
        laps.append(
            WorkoutEvent(
                type: "lap", date: FITTime.instant(start),
                durationSeconds: message.number(FITProfile.Lap.totalElapsedTime, scale: 1000), metadata: metadata))
    }

    /// A session is a workout: its sport, times and totals, the laps, pauses and route within it,
    /// and a `workout` record of the catalog's activity value.
    mutating func readSession(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        guard
            let elapsedMilliseconds = FITTime.milliseconds(
                message.number(FITProfile.Session.totalElapsedTime, scale: 1000) ?? 0)
        else {
            warnings["session_time_out_of_range", default: 0] += 1
            return
        }
        guard
            let start = message.unsigned(FITProfile.Session.startTime).map(UInt32.init(truncatingIfNeeded:))
                ?? message.timestamp.map({ $0 &- UInt32(clamping: elapsedMilliseconds / 1000) })
        else {
            warnings["session_without_time", default: 0] += 1
            return
        }
        let sportNumber = message.unsigned(FITProfile.Session.sport)
        let sportName = enumName(message, FITProfile.Session.sport, in: names.sport) ?? "generic"
        let subSportName = enumName(message, FITProfile.Session.subSport, in: names.subSport)
        sport = sportName
        subSport = subSportName
        guard let mapping = mappings.field("session", "sport") else { return }
        var metadata = [MetadataEntry(key: "fit_sport", value: sportName)]
        if let subSportName { metadata.append(MetadataEntry(key: "fit_sub_sport", value: subSportName)) }
        let record = RawRecord(
            type: mapping.identifier, sourceName: device.sourceName, device: device.description,
            value: .text(sportNumber.flatMap { mapping.values[String($0)] } ?? "other"), start: time(start),
            end: time(start, milliseconds: elapsedMilliseconds), metadata: metadata)
        guard FITTime.isAbsolute(start) else {
            try emit(.record(record))
            return
        }
        let from = FITTime.instant(start)
        let to = FITTime.instant(start, milliseconds: elapsedMilliseconds)
        let within = { (instant: Instant) in instant >= from && instant <= to }
        let workout = Workout(
            activityType: subSportName.map { sportName + "/" + $0 } ?? sportName, sourceName: device.sourceName,
            device: device.description, start: from, end: to, utcOffsetSeconds: utcOffsetSeconds,
            durationSeconds: message.number(FITProfile.Session.totalTimerTime, scale: 1000), metadata: metadata,
            events: (laps + pauses).filter { within($0.date) }.sorted { $0.date < $1.date },
            statistics: statistics(of: message),
            route: route.filter { $0.instant.map(within) ?? false })
        try emit(.workout(workout, record: record))
    }

    private func statistics(of message: FITMessage) -> [WorkoutStatistic] {
        typealias Session = FITProfile.Session
        var statistics: [WorkoutStatistic] = []
        let sums: [(String, Double?, String)] = [
            ("total_distance", message.number(Session.totalDistance, scale: 100), "m"),
            ("total_calories", message.number(Session.totalCalories), "kcal"),
            ("total_ascent", message.number(Session.totalAscent), "m"),
            ("total_descent", message.number(Session.totalDescent), "m"),
        ]
        for (type, sum, unit) in sums {
            if let sum { statistics.append(WorkoutStatistic(type: type, sum: sum, unit: unit)) }
        }
        // 0 is "no sensor" for heart rate, as in records.
        let ranges: [(String, Double?, Double?, String)] = [
            (
                "heart_rate", message.number(Session.averageHeartRate).flatMap { $0 > 0 ? $0 : nil },
                message.number(Session.maximumHeartRate).flatMap { $0 > 0 ? $0 : nil }, "bpm"
            ),
            ("power", message.number(Session.averagePower), message.number(Session.maximumPower), "W"),
            ("cadence", message.number(Session.averageCadence), message.number(Session.maximumCadence), "rpm"),
        ]
        for (type, average, maximum, unit) in ranges where average != nil || maximum != nil {
            statistics.append(WorkoutStatistic(type: type, average: average, maximum: maximum, unit: unit))
        }
        return statistics
    }

    /// `hr` values at their event times: an anchor message (one with a `timestamp`) ties event
    /// time to clock time; the others carry event times as 12-bit parts that count on from the
    /// last one. A second a `record` already gave a heart rate for is not given a second one.
    mutating func readHeartRates(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        typealias Field = FITProfile.HeartRates
        var events: [UInt32] = []
        for element in 0..<message.count(Field.eventTimestamp) {
            if let raw = message.unsigned(Field.eventTimestamp, element: element) {
                events.append(UInt32(truncatingIfNeeded: raw))
            }
        }
        if events.isEmpty, let packed = message.fieldBytes(Field.eventTimestamp12) {
            for part in 0..<(packed.count * 8 / 12) {
                guard let last = lastHeartRateEvent else { break }
                let bit = part * 12
                let pair = UInt32(packed[bit / 8]) | UInt32(bit / 8 + 1 < packed.count ? packed[bit / 8 + 1] : 0) << 8
                let low12 = (pair >> UInt32(bit % 8)) & 0xFFF
                let event = last &+ ((low12 &- last) & 0xFFF)
                lastHeartRateEvent = event
                events.append(event)
            }
        }
        lastHeartRateEvent = events.last ?? lastHeartRateEvent
        if let seconds = message.raw(FITMessageDecoder.timestampField), let first = events.first {
            let fraction = FITTime.milliseconds(message.number(Field.fractionalTimestamp, scale: 32768) ?? 0) ?? 0
            heartRateAnchor = (Int64(UInt32(truncatingIfNeeded: seconds)) * 1000 + fraction, first)
        }
        guard let anchor = heartRateAnchor else {
            warnings["heart_rate_without_time", default: 0] += events.count
            return
        }
        for (index, event) in events.enumerated() {
            guard let rate = message.unsigned(Field.filteredBPM, element: index), rate > 0 else { continue }
            let at = anchor.milliseconds + (Int64(event) - Int64(anchor.event)) * 1000 / 1024
            let second = UInt32(clamping: at / 1000)
            if recordHeartRateSeconds.contains(second) {
                warnings["heart_rate_also_in_record", default: 0] += 1
                continue
            }
            if let record = record(targets.strapHeartRate, value: Double(rate), start: second, milliseconds: at % 1000)
            {
                try emit(.record(record))
            }
        }
    }
}
