/// The records of one type for one day, built from the day's plan and the type's own generator.
extension HealthModel {
    /// Appends one day's records of one type, in no particular order.
    func generate(_ stream: HealthType, plan: DayPlan, into records: inout [SimulatedRecord]) {
        var random = generator(stream, day: plan.day)
        switch stream {
        case .bodyMass: bodyMass(plan, &random, &records)
        case .heartRate: heartRate(plan, &random, &records)
        case .oxygenSaturation: oxygenSaturation(plan, &random, &records)
        case .bloodPressureSystolic, .bloodPressureDiastolic:
            if let reading = bloodPressure(plan.day) {
                records.append(bloodPressureRecord(reading, systolic: stream == .bloodPressureSystolic))
            }
        case .respiratoryRate: respiratoryRate(plan, &random, &records)
        case .stepCount: steps(plan, &records)
        case .distanceWalkingRunning: distance(plan, &records)
        case .basalEnergyBurned: basalEnergy(plan, &random, &records)
        case .activeEnergyBurned: activeEnergy(plan, &random, &records)
        case .flightsClimbed: flights(plan, &random, &records)
        case .appleExerciseTime: exerciseTime(plan, &random, &records)
        case .restingHeartRate: restingHeartRate(plan, &random, &records)
        case .walkingHeartRateAverage: walkingHeartRate(plan, &random, &records)
        case .environmentalAudioExposure: audioExposure(plan, &random, &records)
        case .heartRateVariabilitySDNN: heartRateVariability(plan, &random, &records)
        case .sleepAnalysis: sleep(plan, &random, &records)
        case .appleStandHour: standHours(plan, &random, &records)
        case .mindfulSession: mindful(plan, &random, &records)
        }
    }

    @inline(__always)
    func quantity(
        _ source: Source, _ unit: ExportUnit, start: Int64, end: Int64, created: Int64,
        value: Int64, scale: Int, noise: UInt64, metadata: RecordMetadata = [], motionContext: UInt8 = 0,
        duplicate: Bool = false
    ) -> SimulatedRecord {
        SimulatedRecord(
            start: start, end: end, created: created, value: value, noise: noise, source: source,
            unit: unit, scale: UInt8(scale), kind: .quantity, metadata: metadata,
            motionContext: motionContext,
            duplicate: duplicate)
    }

    @inline(__always)
    func category(
        _ source: Source, _ value: CategoryValue?, start: Int64, end: Int64, created: Int64,
        noise: UInt64, metadata: RecordMetadata = []
    ) -> SimulatedRecord {
        SimulatedRecord(
            start: start, end: end, created: created, value: value?.rawValue ?? 0, noise: noise,
            source: source, unit: .none, scale: 0, kind: value == nil ? .absent : .category,
            metadata: metadata, motionContext: 0, duplicate: false)
    }

    /// About one record in 5,000 overall (1 in 4,500 of the dense types) is exported twice.
    @inline(__always)
    static func isDuplicate(_ noise: UInt64) -> Bool { (noise >> 17) % 4500 == 0 }

    @inline(__always)
    static func mantissa(_ value: Double, scale: Int) -> Int64 {
        Int64((value * Double(ByteWriter.powersOfTen[scale])).rounded())
    }
}
