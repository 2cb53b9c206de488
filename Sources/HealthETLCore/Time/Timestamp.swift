/// An instant together with the UTC offset its source wrote next to it.
///
/// Apple exports write every date with the phone's offset at export time, so the offset is kept
/// for display and for a last-resort local day, never trusted for identity.
public struct Timestamp: Hashable, Sendable {
    public var instant: Instant
    /// Seconds east of UTC as written, or `nil` when the text carried no offset.
    public var utcOffsetSeconds: Int32?

    public init(instant: Instant, utcOffsetSeconds: Int32?) {
        self.instant = instant
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}
