/// A lap's (or the session's) starting point and heart-rate tally.
struct FITLapTotals {
    let start: Int64
    let startDistance: Int64
    let startCalories: Int
    let startAscent: Int
    private var heartRateSum = 0
    private var heartRateCount = 0
    private(set) var maxHeartRate = 0

    init(start: Int64, distance: Int64, calories: Int, ascent: Int) {
        self.start = start
        startDistance = distance
        startCalories = calories
        startAscent = ascent
    }

    mutating func add(_ sample: FITActivitySample) {
        heartRateSum += sample.heartRate
        heartRateCount += 1
        maxHeartRate = max(maxHeartRate, sample.heartRate)
    }

    var averageHeartRate: Int64 {
        heartRateCount == 0 ? 0 : Int64((Double(heartRateSum) / Double(heartRateCount)).rounded())
    }
}
