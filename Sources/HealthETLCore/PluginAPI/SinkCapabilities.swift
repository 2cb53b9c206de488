/// What a sink does, stated rather than discovered; the sink conformance suite checks each
/// capability a sink declares.
public struct SinkCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Applies deletions (tombstones), not only inserts.
    public static let deletions = SinkCapabilities(rawValue: 1 << 0)
    /// Serves projections (daily rollups, sleep nights) the client can refresh from.
    public static let projections = SinkCapabilities(rawValue: 1 << 1)
    /// Takes the store's source priority, so its projections rank sources as the local ones do.
    public static let sourcePriority = SinkCapabilities(rawValue: 1 << 2)

    /// Keeps a change feed of its projections (`changes`, `changeStream`, conditional
    /// `projection` pulls, `projectionExtent`), for clients that follow other devices' uploads.
    public static let changeFeed = SinkCapabilities(rawValue: 1 << 3)

    private static let named: [(SinkCapabilities, String)] = [
        (.deletions, "deletions"), (.projections, "projections"), (.sourcePriority, "source_priority"),
        (.changeFeed, "change_feed"),
    ]

    /// The declared capabilities' names, in a fixed order.
    public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
}
