/// The samples-per-day knob. A natural simulated day holds about 990 records; the knob scales
/// the one stream a denser wearable really does record more of, the background heart rate
/// (every few minutes by default, down to every second or two), and leaves the rest of the day
/// — steps, energy, sleep, workouts — as it is.
public enum SampleDensity {
    /// Records in a natural day, averaged over seeds 1–6 and 120 days each.
    public static let naturalPerDay = 988.0
    /// Of those, heart-rate samples outside workouts: the part the knob scales.
    static let backgroundHeartRatePerDay = 232.0
    /// From a sparse watch (background heart rate every 15–40 minutes) to continuous heart
    /// rate every couple of seconds.
    public static let supported = 800...40_000

    /// How many times the natural background heart-rate rate gives `samplesPerDay` on average.
    static func heartRateDensity(samplesPerDay: Int) -> Double {
        let fixed = naturalPerDay - backgroundHeartRatePerDay
        return (Double(samplesPerDay) - fixed) / backgroundHeartRatePerDay
    }
}
