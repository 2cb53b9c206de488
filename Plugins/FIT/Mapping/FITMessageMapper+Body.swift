import HealthETLCore

/// Scales and blood-pressure monitors: one person's measurements. A scale may hold several
/// people (`user_profile_index`); only the person asked for is imported, the others counted.
extension FITMessageMapper {
    /// `weight` while the scale is still measuring.
    static let weightCalculating: UInt64 = 0xFFFE

    mutating func readBody(_ message: FITMessage, emit: (FITItem) throws -> Void) throws {
        let isScale = message.globalNumber == FITProfile.weightScale
        let indexField = isScale ? FITProfile.WeightScale.userProfileIndex : FITProfile.BloodPressure.userProfileIndex
        if let index = message.unsigned(indexField), index != person {
            warnings["other_person", default: 0] += 1
            return
        }
        guard let time = message.timestamp else {
            warnings[(isScale ? "weight_scale" : "blood_pressure") + "_without_time", default: 0] += 1
            return
        }
        typealias Scale = FITProfile.WeightScale
        typealias Pressure = FITProfile.BloodPressure
        if isScale, message.unsigned(Scale.weight) == Self.weightCalculating {
            warnings["weight_still_calculating", default: 0] += 1
        }
        let values: [(String, Double?)] =
            isScale
            ? [
                (
                    "weight",
                    message.unsigned(Scale.weight) == Self.weightCalculating
                        ? nil : message.number(Scale.weight, scale: 100)
                ),
                ("percent_fat", message.number(Scale.percentFat, scale: 100)),
                ("percent_hydration", message.number(Scale.percentHydration, scale: 100)),
                ("bone_mass", message.number(Scale.boneMass, scale: 100)),
                ("muscle_mass", message.number(Scale.muscleMass, scale: 100)),
                ("basal_met", message.number(Scale.basalMet, scale: 4)),
                ("bmi", message.number(Scale.bmi, scale: 10)),
            ]
            : [
                ("systolic_pressure", message.number(Pressure.systolic)),
                ("diastolic_pressure", message.number(Pressure.diastolic)),
                ("heart_rate", message.number(Pressure.heartRate).flatMap { $0 > 0 ? $0 : nil }),
            ]
        let name = isScale ? "weight_scale" : "blood_pressure"
        for (field, value) in values {
            if let value, let record = record(name, field, value: value, start: time) { try emit(.record(record)) }
        }
    }
}
