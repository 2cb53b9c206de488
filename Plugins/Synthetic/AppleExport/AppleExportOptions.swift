/// What `AppleExportGenerator` writes: how many top-level Records, from which seed, and where.
public struct AppleExportOptions: Sendable {
    /// Top-level `<Record>` elements, exactly (at least 10).
    public var records: Int
    public var seed: UInt64
    /// The export.xml to write.
    public var out: String
    /// Also write the Health app's `export.zip` here (export.xml and workout-routes/*.gpx).
    public var zipPath: String?
    /// Also write the workouts' GPX route files into this directory.
    public var routesDirectory: String?
    /// Seconds between GPX track points.
    public var routeInterval: Int

    public init(
        records: Int = 300_000, seed: UInt64 = 1, out: String = "export.xml", zipPath: String? = nil,
        routesDirectory: String? = nil, routeInterval: Int = 10
    ) {
        self.records = records
        self.seed = seed
        self.out = out
        self.zipPath = zipPath
        self.routesDirectory = routesDirectory
        self.routeInterval = routeInterval
    }
}
