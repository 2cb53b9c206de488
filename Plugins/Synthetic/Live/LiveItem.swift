/// Something the simulated person's devices produce, with the moment it reaches the phone.
struct LiveItem {
    enum Kind {
        case record(HealthType, SimulatedRecord, Fault)
        case bloodPressure(BloodPressureReading)
        case workout(WorkoutPlan, day: Int)
    }

    /// Which fault, if any, the record carries (`FaultRates`).
    enum Fault {
        case none, duplicate, outOfRange, unknownType
    }

    /// Milliseconds: the end, or hours after it for a late record. Lanes and cursors go by this.
    var availableAt: Int64
    var kind: Kind
}
