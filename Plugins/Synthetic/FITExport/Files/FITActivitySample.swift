/// One second of an activity in the record's raw units, with the running totals a lap and the
/// session report.
struct FITActivitySample {
    /// Semicircles.
    var latitude: Int64 = 0
    var longitude: Int64 = 0
    /// Centimetres since the start (record.distance, scale 100).
    var distance: Int64 = 0
    /// mm/s (enhanced_speed, scale 1000).
    var speed: Int64 = 0
    /// (metres + 500) × 5 (enhanced_altitude).
    var altitude: Int64 = 0
    var heartRate = 0
    var cadence: Int64 = 0
    /// Watts, rides only.
    var power: Int64?
    /// Whole kilocalories, and metres climbed and descended, since the start.
    var calories = 0
    var ascent = 0
    var descent = 0
    /// Beat-to-beat intervals (ms) that ended during this second.
    var beats: [Int64] = []
}
