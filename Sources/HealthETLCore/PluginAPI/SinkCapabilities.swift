/// What a sink can do, stated rather than discovered.
public struct SinkCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Applies deletions (tombstones), not only inserts.
    public static let deletions = SinkCapabilities(rawValue: 1 << 0)
    /// Serves projections (daily rollups, sleep nights) the client can refresh from.
    public static let projections = SinkCapabilities(rawValue: 1 << 1)
}
