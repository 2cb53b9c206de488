import HealthETLCore

/// What `AppleExportGenerator` writes: how many top-level Records, from which seed, and where.
///
/// At least one of `out` and `zipPath` must be set. Every file written is created 0600.
public struct AppleExportOptions: Sendable {
    /// Top-level `<Record>` elements, exactly (at least 10).
    public var records: Int
    public var seed: UInt64
    /// Write a bare export.xml here. Optional when `zipPath` is set, since the zip holds the same
    /// bytes as `apple_health_export/export.xml`; setting both writes both in one pass.
    public var out: String?
    /// Write the Health app's `export.zip` here: `apple_health_export/export.xml`, then
    /// `apple_health_export/workout-routes/*.gpx` sorted by name. Streamed straight into the
    /// archive (no temporary files); `PATH.partial` until complete.
    public var zipPath: String?
    /// Also write the workouts' GPX route files into this directory.
    public var routesDirectory: String?
    /// Seconds between GPX track points.
    public var routeInterval: Int
    /// The size of a day (see `SampleDensity`); nil for the natural day. With more per day,
    /// the same number of records covers fewer days.
    public var samplesPerDay: Int?
    /// Also write one record of every type this catalog knows by a HealthKit identifier, and a
    /// Food correlation, on the last day (beyond `records`).
    public var everyType: MetricCatalog?

    public init(
        records: Int = 300_000, seed: UInt64 = 1, out: String? = nil, zipPath: String? = nil,
        routesDirectory: String? = nil, routeInterval: Int = 10, samplesPerDay: Int? = nil,
        everyType: MetricCatalog? = nil
    ) {
        self.records = records
        self.seed = seed
        self.out = out
        self.zipPath = zipPath
        self.routesDirectory = routesDirectory
        self.routeInterval = routeInterval
        self.samplesPerDay = samplesPerDay
        self.everyType = everyType
    }
}
