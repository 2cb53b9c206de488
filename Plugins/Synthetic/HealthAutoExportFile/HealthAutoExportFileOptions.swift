/// What `HealthAutoExportFileGenerator` writes: a Health Auto Export JSON file of one phone's
/// days, in the shape and spelling the app's settings choose.
public struct HealthAutoExportFileOptions: Sendable {
    /// The JSON file to write, created 0600.
    public var path: String
    /// Days of data, ending the day before the file is written.
    public var days: Int
    public var seed: UInt64
    /// Export format: 1 (older workouts and sleep totals) or 2.
    public var format: Int
    /// "Summarize data" on: metrics as `{date, qty}` per period (hourly, sleep as nightly
    /// totals); off: `{date, start, end, qty}` measurements and sleep stages.
    public var summarized: Bool
    /// The phone's 12-hour clock setting: `8:04:45 PM` with U+202F before the AM/PM.
    public var twelveHour: Bool
    /// Wrap the sections in `{"data": …}` as file exports do (pushes may omit it).
    public var envelope: Bool
    /// Seconds between heart-rate points.
    public var heartRateInterval: Int
    /// The phone's UTC offset in seconds.
    public var utcOffsetSeconds: Int
    /// Each metric's `name`, `units` and `data` in a different order (HAE's files hold every one),
    /// rather than name first.
    public var mixedMemberOrder: Bool

    public init(
        path: String, days: Int = 7, seed: UInt64 = 1, format: Int = 2, summarized: Bool = false,
        twelveHour: Bool = false, envelope: Bool = true, heartRateInterval: Int = 60, utcOffsetSeconds: Int = -8 * 3600,
        mixedMemberOrder: Bool = false
    ) {
        self.path = path
        self.days = days
        self.seed = seed
        self.format = format
        self.summarized = summarized
        self.twelveHour = twelveHour
        self.envelope = envelope
        self.heartRateInterval = heartRateInterval
        self.utcOffsetSeconds = utcOffsetSeconds
        self.mixedMemberOrder = mixedMemberOrder
    }
}
