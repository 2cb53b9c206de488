/// A page of `GET /v1/changes`: the changes after the asked sequence, the sequence to ask from
/// next, the feed's head, and whether more changes follow.
public struct FeedPage: Sendable, Equatable, Codable {
    public let changes: [FeedChange]
    public let next: Int64
    public let head: Int64
    public let more: Bool

    public init(changes: [FeedChange], next: Int64, head: Int64, more: Bool) {
        self.changes = changes
        self.next = next
        self.head = head
        self.more = more
    }
}
