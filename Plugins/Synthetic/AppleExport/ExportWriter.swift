/// Renders records, correlations, workouts and activity summaries as Apple writes them.
final class ExportWriter {
    let out: ByteWriter
    private let model: HealthModel

    private let recordOpen: [[UInt8]]
    /// ` sourceName="…" sourceVersion="…"` per source, per software era.
    private let sourceAttributes: [[[UInt8]]]
    /// `&gt;, name:…, software:…&gt;"` per source, per era; empty for sources without a device.
    private let deviceTails: [[[UInt8]]]
    private let unitAttributes: [[UInt8]]
    private let categoryValues: [[UInt8]]

    private var eraDay = Int.min
    private var era = 0

    private(set) var hrvBeats = 0

    init(out: ByteWriter, model: HealthModel) {
        self.out = out
        self.model = model
        recordOpen = HealthType.allCases.map { Array("<Record type=\"\($0.identifier)\"".utf8) }
        sourceAttributes = Source.allCases.map { source in
            Vocabulary.eras.map { era in
                Array(" sourceName=\"\(source.name)\" sourceVersion=\"\(source.version(in: era))\"".utf8)
            }
        }
        deviceTails = Source.allCases.map { source in
            Vocabulary.eras.map { era in
                source.device(in: era).map { Array("&gt;, \($0)&gt;\"".utf8) } ?? []
            }
        }
        unitAttributes = (0...12).map { raw in
            let unit = ExportUnit(rawValue: UInt8(raw)) ?? .none
            return unit == .none ? [] : Array(" unit=\"\(unit.text)\"".utf8)
        }
        categoryValues = CategoryValue.allCases.map { Array($0.text.utf8) }
    }

    @inline(__always)
    private func eraIndex(for instant: Int64) -> Int {
        let day = Int(CivilTime.floorDiv(instant + CivilTime.exportOffsetSeconds, 86400))
        if day != eraDay {
            eraDay = day
            era = Vocabulary.eraIndex(day: day)
        }
        return era
    }

    // MARK: document

    func prolog() {
        out.put(Vocabulary.prolog)
        out.put("<HealthData locale=\"en_US\">\n <ExportDate value=\"")
        out.put(Vocabulary.exportDate)
        out.put("\"/>\n")
        out.put(Vocabulary.me)
    }

    func epilog() { out.put("</HealthData>\n") }

    // MARK: Record

    private func sourceAndDevice(_ source: Source, noise: UInt64, era: Int) {
        let index = Int(source.rawValue)
        out.put(sourceAttributes[index][era])
        let tail = deviceTails[index][era]
        if !tail.isEmpty {
            // The object's address: different in every record and every export.
            out.put(" device=\"&lt;&lt;HKDevice: 0x28")
            out.hex(noise >> 20, digits: 7)
            out.put(tail)
        }
    }

    @inline(__always)
    private func dates(created: Int64, start: Int64, end: Int64) {
        out.put(" creationDate=\"")
        out.date(created)
        out.put("\" startDate=\"")
        out.date(start)
        out.put("\" endDate=\"")
        out.date(end)
        out.byte(UInt8(ascii: "\""))
    }

    func record(_ record: SimulatedRecord, stream: HealthType, indent: Int) {
        out.spaces(indent)
        out.put(recordOpen[stream.rawValue])
        sourceAndDevice(record.source, noise: record.noise, era: eraIndex(for: record.start))
        out.put(unitAttributes[Int(record.unit.rawValue)])
        dates(created: record.created, start: record.start, end: record.end)
        switch record.kind {
        case .quantity:
            out.put(" value=\"")
            out.decimal(record.value, scale: Int(record.scale))
            out.byte(UInt8(ascii: "\""))
        case .category:
            out.put(" value=\"")
            out.put(categoryValues[Int(record.value)])
            out.byte(UInt8(ascii: "\""))
        case .absent:
            break
        }
        guard !record.metadata.isEmpty else {
            out.put("/>\n")
            return
        }
        out.put(">\n")
        if record.metadata.contains(.motionContext) {
            out.spaces(indent + 1)
            out.put("<MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"")
            out.integer(Int(record.motionContext))
            out.put("\"/>\n")
        }
        if record.metadata.contains(.userEnteredNo) {
            out.spaces(indent + 1)
            out.put("<MetadataEntry key=\"HKWasUserEntered\" value=\"0\"/>\n")
        }
        if record.metadata.contains(.userEnteredYes) {
            out.spaces(indent + 1)
            out.put("<MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n")
        }
        if record.metadata.contains(.timeZone) {
            out.spaces(indent + 1)
            out.put("<MetadataEntry key=\"HKTimeZone\" value=\"America/Los_Angeles\"/>\n")
        }
        if record.metadata.contains(.beats) { beats(record, indent: indent + 1) }
        out.spaces(indent)
        out.put("</Record>\n")
    }

    /// The beat-to-beat list: times of day in the en_US 12-hour format, on the Pacific wall
    /// clock, so in summer they disagree with the record's -0800 dates by an hour, as in real files.
    private func beats(_ record: SimulatedRecord, indent: Int) {
        var random = SplitMix64(state: record.noise)
        let count = random.int(45, 85)
        var centiseconds = CivilTime.localWallClock(record.start).second * 100 + random.int(0, 99)
        out.spaces(indent)
        out.put("<HeartRateVariabilityMetadataList>\n")
        for _ in 0..<count {
            let bpm = random.int(52, 76)
            out.spaces(indent + 1)
            out.put("<InstantaneousBeatsPerMinute bpm=\"")
            out.integer(bpm)
            out.put("\" time=\"")
            out.twelveHourTime(centiseconds: centiseconds)
            out.put("\"/>\n")
            centiseconds += 6000 / bpm + random.int(-4, 4)
        }
        hrvBeats += count
        out.spaces(indent)
        out.put("</HeartRateVariabilityMetadataList>\n")
    }

    // MARK: Correlation

    func bloodPressure(_ reading: BloodPressureReading) {
        let source: Source = reading.manual ? .health : .healthMate
        out.put(" <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\"")
        sourceAndDevice(source, noise: reading.noise, era: eraIndex(for: reading.time))
        dates(created: reading.created, start: reading.time, end: reading.time)
        out.put(">\n")
        out.put(
            reading.manual
                ? "  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n"
                : "  <MetadataEntry key=\"HKWasUserEntered\" value=\"0\"/>\n")
        record(
            model.bloodPressureRecord(reading, systolic: true), stream: .bloodPressureSystolic, indent: 2)
        record(
            model.bloodPressureRecord(reading, systolic: false), stream: .bloodPressureDiastolic,
            indent: 2)
        out.put(" </Correlation>\n")
    }

    // MARK: Workout

    struct WorkoutEvent {
        let date: Int64
        let kind: StaticString
        let durationSeconds: Double
    }

    /// Writes one Workout (iOS 16+ shape: totals in WorkoutStatistics) and returns the number
    /// of its WorkoutEvents.
    func workout(
        _ workout: WorkoutPlan, day: Int, heartRates: [(time: Int64, bpm: Int64)], routeName: String?
    )
        -> Int
    {
        let era = eraIndex(for: workout.start)
        out.put(" <Workout workoutActivityType=\"")
        out.put(workout.running ? "HKWorkoutActivityTypeRunning" : "HKWorkoutActivityTypeWalking")
        out.put("\" duration=\"")
        // Active minutes as a full-precision double, pauses excluded.
        out.decimal(
            workout.activeSeconds * 10_000_000_000 / 60 + workout.durationFraction % 100_000, scale: 10)
        out.put("\" durationUnit=\"min\"")
        sourceAndDevice(.watch, noise: workout.uuidLow, era: era)
        dates(created: workout.created, start: workout.start, end: workout.end)
        out.put(">\n")
        out.put("  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n")
        out.put("  <MetadataEntry key=\"HKAverageMETs\" value=\"")
        let hours = Double(workout.activeSeconds) / 3600
        out.fixed(workout.activeKilocalories / hours / 72.5, scale: 5)
        out.put(" kcal/hr\u{00B7}kg\"/>\n")
        out.put("  <MetadataEntry key=\"HKWeatherTemperature\" value=\"")
        out.integer(workout.temperatureFahrenheit)
        out.put(" degF\"/>\n  <MetadataEntry key=\"HKWeatherHumidity\" value=\"")
        out.integer(workout.humidityHundredths)
        out.put(" %\"/>\n  <MetadataEntry key=\"HKTimeZone\" value=\"America/Los_Angeles\"/>\n")
        out.put("  <MetadataEntry key=\"HKElevationAscended\" value=\"")
        out.integer(workout.elevationCentimetres)
        out.put(" cm\"/>\n")

        // Events: a Segment per mile, plus pauses and resumes.
        var events: [WorkoutEvent] = []
        let mile = 1609.344
        let secondsPerMile = Double(workout.activeSeconds) / (workout.metres / mile)
        var reached = 0.0
        while reached + secondsPerMile <= Double(workout.activeSeconds) {
            events.append(
                WorkoutEvent(
                    date: activeInstant(workout, Int64(reached)), kind: "HKWorkoutEventTypeSegment",
                    durationSeconds: secondsPerMile))
            reached += secondsPerMile
        }
        for pause in workout.pauses {
            events.append(
                WorkoutEvent(date: pause.pausedAt, kind: "HKWorkoutEventTypePause", durationSeconds: 0))
            events.append(
                WorkoutEvent(date: pause.resumedAt, kind: "HKWorkoutEventTypeResume", durationSeconds: 0))
        }
        events.sort { $0.date < $1.date }
        for event in events {
            out.put("  <WorkoutEvent type=\"")
            out.put(event.kind)
            out.put("\" date=\"")
            out.date(event.date)
            if event.durationSeconds > 0 {
                out.put("\" duration=\"")
                out.decimal(Int64((event.durationSeconds / 60 * 1e10).rounded()), scale: 10)
                out.put("\" durationUnit=\"min")
            }
            out.put("\"/>\n")
        }

        let energyUnit = model.energyUnit(.watch, day: day)
        let energyFactor = energyUnit == .kilojoule ? 4.184 : 1
        let energyText: StaticString = energyUnit == .kilojoule ? "kJ" : "kcal"
        statistic("HKQuantityTypeIdentifierActiveEnergyBurned", workout)
        out.put(" sum=\"")
        out.decimal(Int64((workout.activeKilocalories * energyFactor * 1e8).rounded()), scale: 8)
        out.put("\" unit=\"")
        out.put(energyText)
        out.put("\"/>\n")
        statistic("HKQuantityTypeIdentifierBasalEnergyBurned", workout)
        out.put(" sum=\"")
        out.decimal(Int64((workout.basalKilocalories * energyFactor * 1e8).rounded()), scale: 8)
        out.put("\" unit=\"")
        out.put(energyText)
        out.put("\"/>\n")
        statistic("HKQuantityTypeIdentifierDistanceWalkingRunning", workout)
        out.put(" sum=\"")
        out.decimal(Int64((workout.metres / 1000 * 1e10).rounded()), scale: 10)
        out.put("\" unit=\"km\"/>\n")
        if !heartRates.isEmpty {
            var sum: Int64 = 0
            var low = Int64.max
            var high = Int64.min
            for sample in heartRates {
                sum += sample.bpm
                low = min(low, sample.bpm)
                high = max(high, sample.bpm)
            }
            statistic("HKQuantityTypeIdentifierHeartRate", workout)
            out.put(" average=\"")
            out.decimal(sum * 10_000_000_000 / Int64(heartRates.count), scale: 10)
            out.put("\" minimum=\"")
            out.integer(low)
            out.put("\" maximum=\"")
            out.integer(high)
            out.put("\" unit=\"count/min\"/>\n")
        }
        statistic("HKQuantityTypeIdentifierStepCount", workout)
        out.put(" sum=\"")
        out.integer(workout.steps)
        out.put("\" unit=\"count\"/>\n")

        if let routeName {
            out.put("  <WorkoutRoute")
            out.put(sourceAttributes[Int(Source.watch.rawValue)][era])
            dates(created: workout.created + 3, start: workout.start, end: workout.end)
            out.put(">\n   <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"2\"/>\n")
            out.put("   <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"")
            out.uuid(workout.uuidHigh, workout.uuidLow)
            out.put("\"/>\n   <FileReference path=\"/workout-routes/")
            out.put(routeName)
            out.put("\"/>\n  </WorkoutRoute>\n")
        }
        out.put(" </Workout>\n")
        return events.count
    }

    private func statistic(_ type: StaticString, _ workout: WorkoutPlan) {
        out.put("  <WorkoutStatistics type=\"")
        out.put(type)
        out.put("\" startDate=\"")
        out.date(workout.start)
        out.put("\" endDate=\"")
        out.date(workout.end)
        out.byte(UInt8(ascii: "\""))
    }

    /// The instant at which `active` seconds of activity had elapsed, pauses excluded.
    func activeInstant(_ workout: WorkoutPlan, _ active: Int64) -> Int64 {
        var instant = workout.start + active
        for pause in workout.pauses where pause.pausedAt <= instant {
            instant += pause.resumedAt - pause.pausedAt
        }
        return instant
    }

    // MARK: ActivitySummary

    func activitySummary(day: Int, activeKilocalories: Double, exerciseMinutes: Int, standHours: Int) {
        out.put(" <ActivitySummary dateComponents=\"")
        out.calendarDay(day)
        out.put("\" activeEnergyBurned=\"")
        out.decimal(Int64((activeKilocalories * 1000).rounded()), scale: 3)
        out.put("\" activeEnergyBurnedGoal=\"")
        out.integer(day < model.unitSwitchDay ? 600 : 680)
        out.put("\" activeEnergyBurnedUnit=\"Cal\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\"")
        out.put(" appleExerciseTime=\"")
        out.integer(exerciseMinutes)
        out.put("\" appleExerciseTimeGoal=\"30\" appleStandHours=\"")
        out.integer(standHours)
        out.put("\" appleStandHoursGoal=\"12\"/>\n")
    }
}
