import HealthETLCore

/// Turns what the model produced into the records, correlations and workouts a source emits.
/// Strings that repeat (types, units, sources, versions, devices) are built once and shared.
struct LiveRenderer: Sendable {
    static let unknownType = "HKQuantityTypeIdentifierSimulatedUnknownType"

    private let sourceNames: [String]
    /// Per source, per software era.
    private let versions: [[String]]
    private let devices: [[String?]]
    private let units: [String?]
    private let types: [String]
    private let categories: [String]

    init(person: Int) {
        let vocabulary = PersonVocabulary(person: person)
        sourceNames = Source.allCases.map(vocabulary.sourceName)
        versions = Source.allCases.map { source in Vocabulary.eras.map(source.version) }
        devices = Source.allCases.map { source in Vocabulary.eras.map(source.device) }
        units = (0...12).map { raw in
            let unit = ExportUnit(rawValue: UInt8(raw)) ?? .none
            return unit == .none ? nil : unit.text
        }
        types = HealthType.allCases.map(\.identifier)
        categories = CategoryValue.allCases.map(\.text)
    }

    /// The events of one item, in `lane`.
    func events(_ item: LiveItem, lane: Lane, into events: inout [SourceEvent]) {
        switch item.kind {
        case .record(let type, let simulated, let fault):
            var record = raw(simulated, type: type)
            switch fault {
            case .none: events.append(.record(record, lane: lane))
            case .duplicate:
                events.append(.record(record, lane: lane))
                events.append(.record(record, lane: lane))
            case .outOfRange:
                record.value = .text(Self.decimal(simulated.value * 25, scale: Int(simulated.scale)))
                events.append(.record(record, lane: lane))
            case .unknownType:
                events.append(.record(record, lane: lane))
                record.type = Self.unknownType
                events.append(.record(record, lane: lane))
            }
        case .bloodPressure(let reading):
            events.append(.correlation(bloodPressure(reading), lane: lane))
        case .workout(let plan, let day):
            events.append(.workout(workout(plan, day: day), lane: lane))
        }
    }

    /// A record as the phone would hand it over.
    func raw(_ record: SimulatedRecord, type: HealthType) -> RawRecord {
        let era = Vocabulary.eraIndex(day: Int(CivilTime.floorDiv(record.start, 86_400)))
        let source = Int(record.source.rawValue)
        let value: RawValue =
            switch record.kind {
            case .quantity: .text(Self.decimal(record.value, scale: Int(record.scale)))
            case .category: .text(categories[Int(record.value)])
            case .absent: .absent
            }
        return RawRecord(
            type: types[type.rawValue], sourceName: sourceNames[source], sourceVersion: versions[source][era],
            device: devices[source][era], unit: units[Int(record.unit.rawValue)], value: value,
            start: .timestamp(Self.timestamp(record.start)), end: .timestamp(Self.timestamp(record.end)),
            metadata: metadata(record), series: record.metadata.contains(.beats) ? beats(record) : [])
    }

    private func metadata(_ record: SimulatedRecord) -> [MetadataEntry] {
        guard !record.metadata.subtracting(.beats).isEmpty else { return [] }
        var entries: [MetadataEntry] = []
        if record.metadata.contains(.motionContext) {
            entries.append(
                MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: String(record.motionContext)))
        }
        if record.metadata.contains(.userEnteredNo) {
            entries.append(MetadataEntry(key: "HKWasUserEntered", value: "0"))
        }
        if record.metadata.contains(.userEnteredYes) {
            entries.append(MetadataEntry(key: "HKWasUserEntered", value: "1"))
        }
        if record.metadata.contains(.timeZone) {
            entries.append(MetadataEntry(key: "HKTimeZone", value: Vocabulary.timeZone))
        }
        return entries
    }

    /// Beat-to-beat heart rates after the record's start.
    private func beats(_ record: SimulatedRecord) -> [SeriesPoint] {
        var random = SplitMix64(state: record.noise)
        let count = random.int(45, 85)
        var milliseconds = record.start * 1000 + Int64(random.int(0, 990))
        var points: [SeriesPoint] = []
        points.reserveCapacity(count)
        for _ in 0..<count {
            let bpm = random.int(52, 76)
            points.append(SeriesPoint(instant: Instant(millisecondsSinceEpoch: milliseconds), value: Double(bpm)))
            milliseconds += Int64(60_000 / bpm + random.int(-40, 40))
        }
        return points
    }

    private func bloodPressure(_ reading: BloodPressureReading) -> RawRecord {
        let source: Source = reading.manual ? .health : .healthMate
        let era = Vocabulary.eraIndex(day: Int(CivilTime.floorDiv(reading.time, 86_400)))
        let at = RawTime.timestamp(Self.timestamp(reading.time))
        return RawRecord(
            type: "HKCorrelationTypeIdentifierBloodPressure", sourceName: sourceNames[Int(source.rawValue)],
            sourceVersion: versions[Int(source.rawValue)][era], value: .absent, start: at, end: at)
    }

    private func workout(_ plan: WorkoutPlan, day: Int) -> Workout {
        let era = Vocabulary.eraIndex(day: day)
        let watch = Int(Source.watch.rawValue)
        let start = Instant(millisecondsSinceEpoch: plan.start * 1000)
        let end = Instant(millisecondsSinceEpoch: plan.end * 1000)
        var events: [WorkoutEvent] = []
        for pause in plan.pauses {
            events.append(
                WorkoutEvent(
                    type: "HKWorkoutEventTypePause", date: Instant(millisecondsSinceEpoch: pause.pausedAt * 1000)))
            events.append(
                WorkoutEvent(
                    type: "HKWorkoutEventTypeResume", date: Instant(millisecondsSinceEpoch: pause.resumedAt * 1000)))
        }
        let statistics = [
            WorkoutStatistic(
                type: "HKQuantityTypeIdentifierActiveEnergyBurned", start: start, end: end,
                sum: plan.activeKilocalories, unit: "kcal"),
            WorkoutStatistic(
                type: "HKQuantityTypeIdentifierBasalEnergyBurned", start: start, end: end, sum: plan.basalKilocalories,
                unit: "kcal"),
            WorkoutStatistic(
                type: "HKQuantityTypeIdentifierDistanceWalkingRunning", start: start, end: end, sum: plan.metres / 1000,
                unit: "km"),
            WorkoutStatistic(
                type: "HKQuantityTypeIdentifierStepCount", start: start, end: end, sum: Double(plan.steps),
                unit: "count"),
        ]
        return Workout(
            activityType: plan.running ? "HKWorkoutActivityTypeRunning" : "HKWorkoutActivityTypeWalking",
            sourceName: sourceNames[watch], sourceVersion: versions[watch][era], device: devices[watch][era],
            start: start, end: end, utcOffsetSeconds: Self.timestamp(plan.start).utcOffsetSeconds,
            durationSeconds: Double(plan.activeSeconds), events: events, statistics: statistics,
            route: LiveRoute.points(plan))
    }

    /// An instant with the Pacific offset in force then.
    static func timestamp(_ seconds: Int64) -> Timestamp {
        let local = CivilTime.localWallClock(seconds)
        let offset = Int64(local.day) * 86_400 + Int64(local.second) - seconds
        return Timestamp(instant: Instant(millisecondsSinceEpoch: seconds * 1000), utcOffsetSeconds: Int32(offset))
    }

    /// `mantissa / 10^scale` as written, without trailing zeros (`71.5`, `12`).
    static func decimal(_ mantissa: Int64, scale: Int) -> String {
        guard scale > 0 else { return String(mantissa) }
        let magnitude = mantissa < 0 ? -mantissa : mantissa
        let whole = magnitude / ByteWriter.powersOfTen[scale]
        var fraction = magnitude % ByteWriter.powersOfTen[scale]
        var digits = scale
        while digits > 0, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let sign = mantissa < 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let text = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - text.count) + text
    }
}
