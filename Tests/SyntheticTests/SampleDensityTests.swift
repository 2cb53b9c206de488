import Testing

@testable import Synthetic

/// The samples-per-day knob gives days of about the size asked for, whatever the seed.
@Suite struct SampleDensityTests {
    /// Mean records per day over `days` days of three seeds.
    func meanPerDay(_ samplesPerDay: Int?, days: Int) -> Double {
        var total = 0
        var scratch: [SimulatedRecord] = []
        for seed: UInt64 in [11, 12, 13] {
            let model = HealthModel(seed: seed, samplesPerDay: samplesPerDay)
            for day in 20_300..<(20_300 + days) {
                let plan = model.plan(day)
                for type in HealthType.allCases {
                    scratch.removeAll(keepingCapacity: true)
                    model.generate(type, plan: plan, into: &scratch)
                    total += scratch.count
                }
            }
        }
        return Double(total) / Double(3 * days)
    }

    @Test(arguments: [800, 1_500, 5_000, 20_000, 40_000])
    func daysHoldAboutTheRequestedRecords(samplesPerDay: Int) {
        let mean = meanPerDay(samplesPerDay, days: 20)
        #expect(abs(mean - Double(samplesPerDay)) / Double(samplesPerDay) < 0.08, "asked \(samplesPerDay), got \(mean)")
    }

    @Test func theNaturalDayIsWhatTheKnobAssumes() {
        let mean = meanPerDay(nil, days: 40)
        #expect(
            abs(mean - SampleDensity.naturalPerDay) / SampleDensity.naturalPerDay < 0.05, "a natural day holds \(mean)")
    }

    @Test func onlyBackgroundHeartRateChanges() {
        let natural = HealthModel(seed: 5)
        let dense = HealthModel(seed: 5, samplesPerDay: 10_000)
        let day = 20_400
        for type in HealthType.allCases where type != .heartRate {
            var naturalRecords: [SimulatedRecord] = []
            var denseRecords: [SimulatedRecord] = []
            natural.generate(type, plan: natural.plan(day), into: &naturalRecords)
            dense.generate(type, plan: dense.plan(day), into: &denseRecords)
            #expect(
                naturalRecords.map(\.start) == denseRecords.map(\.start)
                    && naturalRecords.map(\.value) == denseRecords.map(\.value), "\(type) changed")
        }
        var heartRates: [SimulatedRecord] = []
        dense.generate(.heartRate, plan: dense.plan(day), into: &heartRates)
        let plan = dense.plan(day)
        let awake = heartRates.filter {
            $0.start > plan.wake && $0.start < plan.bedNext && !(plan.workout?.contains($0.start) ?? false)
        }
        let starts = awake.map(\.start).sorted()
        let gaps = zip(starts.dropFirst(), starts).map { $0 - $1 }
        #expect(!gaps.isEmpty && gaps.allSatisfy { $0 >= 1 }, "background heart rate at most once a second")
        #expect(Double(gaps.reduce(0, +)) / Double(gaps.count) < 30, "10,000 a day means heart rate every few seconds")
    }
}
