/// What a change stream delivers.
public enum FeedEvent: Sendable, Equatable {
    case change(FeedChange)
    /// The cursor fell out of the feed: rebuild the projections, then follow from `head`.
    case resync(head: Int64)
}
