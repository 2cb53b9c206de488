/// How far one lane of one source stream has been committed.
///
/// `position` means "everything before this has been committed" in the stream's own units
/// (a byte offset into an export, a millisecond instant of a live stream). It only moves forward.
public struct StreamCursor: Hashable, Sendable {
    /// The source stream, e.g. `apple_health:export-2024-03-01` or `synthetic:person-1`.
    public var stream: String
    public var lane: Lane
    public var position: Int64

    public init(stream: String, lane: Lane, position: Int64) {
        self.stream = stream
        self.lane = lane
        self.position = position
    }
}
