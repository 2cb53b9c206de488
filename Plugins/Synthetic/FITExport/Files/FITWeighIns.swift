/// One morning's weigh-ins on a Garmin Index scale for several people (file type weight): a
/// `user_profile` for each person, a setting rather than a measurement, then a `weight_scale`
/// message per weigh-in with its `user_profile_index`. Nil when nobody weighed that morning.
struct FITWeighIns {
    /// Local day number.
    let day: Int
    /// Days since the export's first day: weights drift with it.
    let dayIndex: Int
    let utcOffsetSeconds: Int
    let scale: FITDevice
    let people: [FITScalePerson]
    let seed: UInt64

    private typealias Weight = FITProfile.WeightScale
    private typealias Profile = FITProfile.UserProfile

    private static let userProfile = FITMessageDefinition(
        "user_profile", Profile.message,
        [
            FITFieldDefinition(FITProfile.messageIndex, .uint16),
            FITFieldDefinition(Profile.weight, .uint16),
            FITFieldDefinition(Profile.gender, .enumeration),
            FITFieldDefinition(Profile.age, .uint8),
            FITFieldDefinition(Profile.height, .uint8),
            FITFieldDefinition(Profile.weightSetting, .enumeration),
        ])

    private static let weightScale = FITMessageDefinition(
        "weight_scale", Weight.message,
        [
            FITFieldDefinition(FITProfile.timestamp, .uint32),
            FITFieldDefinition(Weight.weight, .uint16),
            FITFieldDefinition(Weight.percentFat, .uint16),
            FITFieldDefinition(Weight.percentHydration, .uint16),
            FITFieldDefinition(Weight.boneMass, .uint16),
            FITFieldDefinition(Weight.muscleMass, .uint16),
            FITFieldDefinition(Weight.bmi, .uint16),
            FITFieldDefinition(Weight.userProfileIndex, .uint16),
        ])

    func encode() -> FITEncodedFile? {
        var random = SplitMix64.substream(seed: seed, kind: 0x5745_4947, index: day)
        let localMidnight = Int64(day) * 86_400 - Int64(utcOffsetSeconds)
        var weighIns: [(person: FITScalePerson, time: Int64)] = []
        for person in people where random.chance(person.habit) {
            // One after another, a few minutes apart, from 06:30.
            let time = localMidnight + Int64(6 * 3600 + 1800 + person.index * 420 + random.int(0, 300))
            weighIns.append((person, time))
        }
        guard let first = weighIns.first else { return nil }

        var fit = FITFileEncoder()
        fit.writeFileID(0, type: FITProfile.FileType.weight, device: scale, created: first.time)
        fit.define(1, Self.userProfile)
        for person in people {
            fit.write(
                1,
                [
                    FITProfile.messageIndex: .int(Int64(person.index)),
                    Profile.weight: .scaled(person.profileWeight, 10),
                    Profile.gender: .int(person.male ? 1 : 0),
                    Profile.age: .int(Int64(person.age)),
                    Profile.height: .scaled(person.height, 100),
                    Profile.weightSetting: .int(0),
                ])
        }
        fit.define(2, Self.weightScale)
        var counts: [String: Int] = [:]
        for (person, time) in weighIns {
            let weight = person.weight + 0.03 * Double(dayIndex) + random.normal(0, 0.3)
            let fat = person.percentFat + random.normal(0, 0.4)
            fit.write(
                2,
                [
                    FITProfile.timestamp: .time(time),
                    Weight.weight: .scaled(weight, 100),
                    Weight.percentFat: .scaled(fat, 100),
                    Weight.percentHydration: .scaled(random.uniform(52, 60), 100),
                    Weight.boneMass: .scaled(weight * random.uniform(0.04, 0.045), 100),
                    Weight.muscleMass: .scaled(weight * (1 - fat / 100) * 0.52, 100),
                    Weight.bmi: .scaled(weight / (person.height * person.height), 10),
                    Weight.userProfileIndex: .int(Int64(person.index)),
                ])
            counts[String(person.index), default: 0] += 1
        }

        var file = FITEncodedFile(kind: .weight)
        file.append(fit)
        file.written.weighIns = counts
        return file
    }
}
