/// What a source plugin does, stated rather than discovered; the source conformance suite
/// checks each capability a plugin declares.
public struct SourceCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Reads finished exports (archives, files) that `import` finds by probing their content.
    public static let exports = SourceCapabilities(rawValue: 1 << 0)
    /// Produces live lanes that follow a clock until stopped.
    public static let follows = SourceCapabilities(rawValue: 1 << 1)
    /// Emits deletions in the change lane.
    public static let deletions = SourceCapabilities(rawValue: 1 << 2)
    /// Resumes from its committed cursors without re-reading what they cover.
    public static let resumable = SourceCapabilities(rawValue: 1 << 3)

    private static let named: [(SourceCapabilities, String)] = [
        (.exports, "exports"), (.follows, "follows"), (.deletions, "deletions"), (.resumable, "resumable"),
    ]

    /// The declared capabilities' names, in a fixed order.
    public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
}
