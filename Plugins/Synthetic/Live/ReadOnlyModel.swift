/// The person model, shared by the three lane threads. `HealthModel` is a class with one
/// setting meant for exports (`unitSwitchDay`); live streams never change it, so reading the
/// model from several threads is safe.
struct ReadOnlyModel: @unchecked Sendable {
    private let model: HealthModel
    /// Mixes the person's seed into per-record decisions (faults, change targets).
    let salt: UInt64

    init(_ model: HealthModel, seed: UInt64) {
        self.model = model
        self.salt = SplitMix64.mix(seed ^ 0x6C69_7665)
    }

    /// Everything of one day — records of every type, the blood-pressure correlation, the
    /// workout — with the faults the rates call for, in arrival order.
    func items(day: Int, faults: FaultRates) -> [LiveItem] {
        let plan = model.plan(day)
        var items: [LiveItem] = []
        var scratch: [SimulatedRecord] = []
        scratch.reserveCapacity(1024)
        for type in HealthType.allCases {
            scratch.removeAll(keepingCapacity: true)
            model.generate(type, plan: plan, into: &scratch)
            for record in scratch {
                let decision = FaultDecision(noise: record.noise ^ salt, rates: faults)
                // Correlation members stay intact: their correlation is emitted whole.
                let fault = type.isCorrelationMember ? .none : decision.fault
                items.append(
                    LiveItem(availableAt: record.end * 1000 + decision.lateness, kind: .record(type, record, fault)))
            }
        }
        if let reading = model.bloodPressure(day) {
            items.append(LiveItem(availableAt: reading.time * 1000, kind: .bloodPressure(reading)))
        }
        if let workout = plan.workout {
            items.append(LiveItem(availableAt: workout.end * 1000, kind: .workout(workout, day: day)))
        }
        items.sort { $0.availableAt < $1.availableAt }
        return items
    }
}

/// Which fault a record gets, from its own randomness: the same record always gets the same.
struct FaultDecision {
    var fault: LiveItem.Fault = .none
    /// Milliseconds after its end that a late record arrives (1 to 12 hours).
    var lateness: Int64 = 0

    init(noise: UInt64, rates: FaultRates) {
        var g = SplitMix64(state: noise)
        let draw = g.unit()
        if draw < rates.duplicate {
            fault = .duplicate
        } else if draw < rates.duplicate + rates.outOfRange {
            fault = .outOfRange
        } else if draw < rates.duplicate + rates.outOfRange + rates.unknownType {
            fault = .unknownType
        }
        if g.unit() < rates.late { lateness = g.int64(3_600_000, 43_200_000) }
    }
}
