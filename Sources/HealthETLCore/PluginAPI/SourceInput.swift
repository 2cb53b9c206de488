/// What a source adapter is asked to read.
public struct SourceInput: Sendable {
    /// A file or directory path, as the user gave it.
    public var path: String
    /// Samples ending within this many seconds before the source's "now" go to the hot lane.
    public var hotWindowSeconds: Int64
    /// Cursors the store holds for this source's streams: resume after them.
    public var resumeFrom: [StreamCursor]

    public init(path: String, hotWindowSeconds: Int64 = 7 * 86_400, resumeFrom: [StreamCursor] = []) {
        self.path = path
        self.hotWindowSeconds = hotWindowSeconds
        self.resumeFrom = resumeFrom
    }
}
