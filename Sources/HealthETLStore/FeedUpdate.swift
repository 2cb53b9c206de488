import HealthETLCore

/// What one application of the change feed writes in one transaction: the pulled projection
/// scopes and the cursor they bring the store to.
public struct FeedUpdate: Sendable {
    public var endpoint: String
    public var cursor: Int64
    public var head: Int64
    public var lastEventAt: Instant?
    /// Replace every projection (a rebuild): what was not pulled is dropped.
    public var rebuild: Bool
    /// Each scope's answer; a `.notModified` one leaves the scope as it is.
    public var pulls: [(scope: ChangeKey, answer: ProjectionAnswer)]

    public init(
        endpoint: String, cursor: Int64, head: Int64, lastEventAt: Instant?, rebuild: Bool,
        pulls: [(scope: ChangeKey, answer: ProjectionAnswer)]
    ) {
        self.endpoint = endpoint
        self.cursor = cursor
        self.head = head
        self.lastEventAt = lastEventAt
        self.rebuild = rebuild
        self.pulls = pulls
    }
}
