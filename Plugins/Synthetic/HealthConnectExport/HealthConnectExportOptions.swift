/// What `HealthConnectExportGenerator` writes: how many days of one phone's Health Connect
/// data, how dense, from which seed, and where; or, with `previous`, the next export of the
/// same phone.
public struct HealthConnectExportOptions: Sendable {
    /// The zip to write (`Health Connect.zip` as the phone names it), created 0600.
    public var zipPath: String
    /// Days of data, ending the day before the export.
    public var days: Int
    public var seed: UInt64
    /// Seconds between heart-rate series points (the watch's sampling).
    public var heartRateInterval: Int
    /// An earlier export this run follows: its database, a day later, with some records deleted
    /// and some edited in place (same uuid and row, newer `last_modified_time`).
    public var previous: String?

    public init(
        zipPath: String, days: Int = 14, seed: UInt64 = 1, heartRateInterval: Int = 60, previous: String? = nil
    ) {
        self.zipPath = zipPath
        self.days = days
        self.seed = seed
        self.heartRateInterval = heartRateInterval
        self.previous = previous
    }
}
