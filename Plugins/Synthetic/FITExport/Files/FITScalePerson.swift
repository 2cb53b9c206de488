/// Someone who weighs on the scale: the body the weigh-ins measure, and the settings their
/// user_profile holds (the weight entered when the profile was made, not a measurement).
struct FITScalePerson {
    let index: Int
    let male: Bool
    let age: Int
    let height: Double
    /// Kilograms on the first day; it drifts a little day by day.
    let weight: Double
    let percentFat: Double
    /// Chance of a weigh-in on a given morning.
    let habit: Double

    init(index: Int, seed: UInt64) {
        var random = SplitMix64.substream(seed: seed, kind: 0x5045_5253, index: index)
        self.index = index
        male = index % 2 == 0
        age = random.int(28, 62)
        height = male ? random.uniform(1.72, 1.90) : random.uniform(1.58, 1.75)
        let bmi = random.uniform(21, 28)
        weight = bmi * height * height
        percentFat = male ? random.uniform(15, 25) : random.uniform(22, 32)
        habit = index == 0 ? 0.85 : 0.55
    }

    /// The weight the profile says: what was typed in once, rounded and out of date.
    var profileWeight: Double { (weight + 1.5).rounded() }
}
