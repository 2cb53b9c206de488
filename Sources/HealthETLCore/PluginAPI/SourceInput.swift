/// What a source adapter is asked to read.
public struct SourceInput: Sendable {
    /// A file or directory path, as the user gave it.
    public var path: String
    /// Samples ending within this many seconds before the source's "now" go to the hot lane.
    public var hotWindowSeconds: Int64
    /// Cursors the store holds for this source's streams: resume after them.
    public var resumeFrom: [StreamCursor]
    /// When the read happens: the "now" of an input that carries no date of its own.
    public var readAt: Instant
    /// The source's section of the store's configuration (`sources.fit`).
    public var settings: PluginSettings

    /// Where a read of `stream` resumes: the lower of its hot and cold cursors (each lane commits
    /// on its own, so only what both cover is done), 0 when either has none.
    public func resumePosition(of stream: String) -> Int64 {
        let cursors = resumeFrom.filter { $0.stream == stream }
        return [Lane.hot, .cold].map { lane in cursors.first { $0.lane == lane }?.position ?? 0 }.min() ?? 0
    }

    public init(
        path: String, hotWindowSeconds: Int64 = 7 * 86_400, resumeFrom: [StreamCursor] = [],
        readAt: Instant = Clock.system.now(), settings: PluginSettings = PluginSettings(section: "")
    ) {
        self.settings = settings
        self.path = path
        self.hotWindowSeconds = hotWindowSeconds
        self.resumeFrom = resumeFrom
        self.readAt = readAt
    }
}
