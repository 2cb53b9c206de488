/// What a source adapter can do, stated rather than discovered.
public struct SourceCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Reads finished exports (archives, files) rather than live streams.
    public static let exports = SourceCapabilities(rawValue: 1 << 0)
    /// Follows a live stream until stopped.
    public static let follows = SourceCapabilities(rawValue: 1 << 1)
    /// Emits deletions in the change lane.
    public static let deletions = SourceCapabilities(rawValue: 1 << 2)
    /// Can resume from its cursors without re-reading what was committed.
    public static let resumable = SourceCapabilities(rawValue: 1 << 3)
}
