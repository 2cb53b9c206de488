/// Who is sending a batch, and until when: an expired lease, or one whose process is gone,
/// returns the batch to pending, so a killed upload never strands it.
public struct QueueLease: Sendable, Equatable {
    /// The holder's process id.
    public var owner: Int32
    public var until: Instant

    public init(owner: Int32, until: Instant) {
        self.owner = owner
        self.until = until
    }
}
