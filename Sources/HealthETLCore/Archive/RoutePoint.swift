/// A location of a workout route (GPX `trkpt` or an inline `Location`).
public struct RoutePoint: Hashable, Sendable {
    public var instant: Instant?
    public var latitude: Double
    public var longitude: Double
    public var elevationMeters: Double?
    public var speedMetersPerSecond: Double?
    public var horizontalAccuracyMeters: Double?

    public init(
        instant: Instant?, latitude: Double, longitude: Double, elevationMeters: Double? = nil,
        speedMetersPerSecond: Double? = nil, horizontalAccuracyMeters: Double? = nil
    ) {
        self.instant = instant
        self.latitude = latitude
        self.longitude = longitude
        self.elevationMeters = elevationMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.horizontalAccuracyMeters = horizontalAccuracyMeters
    }

    /// Whether the point is a place on Earth: finite, latitude within ±90°, longitude within ±180°.
    /// A route keeps only such points (the store cannot hold a NaN coordinate).
    public var isOnEarth: Bool {
        abs(latitude) <= 90 && abs(longitude) <= 180
    }
}
