/// What `FITExportGenerator` writes: a Garmin watch's FIT files over some days, from a seed.
public struct FITExportOptions: Sendable {
    /// Where: a zip when it ends in `.zip`, otherwise a folder; either way laid out as the watch's
    /// `GARMIN/` folder (`Activity/`, `Monitor/`, `Sleep/`, `Weight/`). Files are created 0600.
    public var path: String
    /// Whole local days of data, ending the day before the clock's today.
    public var days: Int
    public var seed: UInt64
    /// People weighing on the scale, `user_profile_index` 0, 1, … (1 to 8).
    public var people: Int
    /// The watch's UTC offset in seconds: the monitoring counters reset at its local midnight.
    public var utcOffsetSeconds: Int

    public init(path: String, days: Int = 7, seed: UInt64 = 1, people: Int = 2, utcOffsetSeconds: Int = -8 * 3600) {
        self.path = path
        self.days = days
        self.seed = seed
        self.people = people
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}
