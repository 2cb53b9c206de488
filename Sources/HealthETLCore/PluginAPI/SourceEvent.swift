/// What a source adapter hands the pipeline, in stream order.
public enum SourceEvent: Sendable {
    /// A record read from the source, in the lane the adapter chose for it.
    case record(RawRecord, lane: Lane)
    /// A sample deleted at the source (change lane).
    case deletion(Tombstone)
    /// Everything emitted before this event is covered by `cursor`: the pipeline may commit it.
    case checkpoint(StreamCursor)
}
