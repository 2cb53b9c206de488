/// A day's blood pressure readings as one file of two FIT files chained back to back, as a
/// monitor that syncs twice a day leaves them: two morning readings, then one in the evening.
struct FITBloodPressureDay {
    /// Local day number.
    let day: Int
    let utcOffsetSeconds: Int
    let monitor: FITDevice
    let seed: UInt64

    private typealias Pressure = FITProfile.BloodPressure

    private static let bloodPressure = FITMessageDefinition(
        "blood_pressure", Pressure.message,
        [
            FITFieldDefinition(FITProfile.timestamp, .uint32),
            FITFieldDefinition(Pressure.systolic, .uint16),
            FITFieldDefinition(Pressure.diastolic, .uint16),
            FITFieldDefinition(Pressure.meanArterialPressure, .uint16),
            FITFieldDefinition(Pressure.userProfileIndex, .uint16),
            FITFieldDefinition(Pressure.heartRate, .uint8),
            FITFieldDefinition(Pressure.heartRateType, .enumeration),
            FITFieldDefinition(Pressure.status, .enumeration),
        ])

    func encode() -> FITEncodedFile {
        var random = SplitMix64.substream(seed: seed, kind: 0x4250_5245, index: day)
        let localMidnight = Int64(day) * 86_400 - Int64(utcOffsetSeconds)
        let morning = localMidnight + 7 * 3600 + Int64(random.int(0, 1800))
        let evening = localMidnight + 21 * 3600 + Int64(random.int(0, 1800))
        var file = FITEncodedFile(kind: .bloodPressure)
        for readings in [[morning, morning + 90], [evening]] {
            var fit = FITFileEncoder()
            fit.writeFileID(0, type: FITProfile.FileType.bloodPressure, device: monitor, created: readings[0])
            fit.define(1, Self.bloodPressure)
            for time in readings {
                let systolic = Int64(random.int(112, 134))
                let diastolic = Int64(random.int(70, 86))
                fit.write(
                    1,
                    [
                        FITProfile.timestamp: .time(time),
                        Pressure.systolic: .int(systolic),
                        Pressure.diastolic: .int(diastolic),
                        Pressure.meanArterialPressure: .int(diastolic + (systolic - diastolic) / 3),
                        Pressure.userProfileIndex: .int(0),
                        Pressure.heartRate: .int(Int64(random.int(58, 74))),
                        Pressure.heartRateType: .int(0),
                        Pressure.status: .int(0),
                    ])
            }
            file.append(fit)
        }
        return file
    }
}
