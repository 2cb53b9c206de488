/// One entry of a user's change feed: the sequence number a commit advanced the feed to, and the
/// projection keys it changed.
public struct FeedChange: Sendable, Equatable, Codable {
    public let seq: Int64
    public let keys: [ChangeKey]

    public init(seq: Int64, keys: [ChangeKey]) {
        self.seq = seq
        self.keys = keys
    }
}
