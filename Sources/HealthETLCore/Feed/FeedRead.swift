/// What reading a user's change feed from a sequence came to.
public enum FeedRead: Sendable, Equatable {
    case page(FeedPage)
    /// The sequence is no longer (or not yet) in the feed: changes after it were pruned, or the
    /// collector's data is older than the client's cursor. The client rebuilds its projections.
    case gone(head: Int64)
}
