/// What `FeedFollower.follow` reports as it goes.
public enum FeedFollowUpdate: Sendable {
    /// A catch-up through `changes` finished (after connecting, and after each reconnect).
    case caughtUp(FeedReport)
    /// A change (or a rebuild) from the stream was applied.
    case applied(FeedReport)
    /// The connection failed; the follower tries again in `retryIn` seconds.
    case failed(String, retryIn: Double)
}
