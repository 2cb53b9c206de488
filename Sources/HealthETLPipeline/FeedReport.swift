/// What following the change feed did.
public struct FeedReport: Sendable, Codable, Equatable {
    /// Changes applied.
    public var changes = 0
    /// Projection scopes asked for, and of those the ones unchanged (304) and pulled (200).
    public var scopes = 0
    public var notModified = 0
    public var pulled = 0
    /// Whether the projections were rebuilt from scratch.
    public var rebuilt = false
    public var cursor: Int64 = 0
    public var head: Int64 = 0
    /// Why the feed was not (fully) followed.
    public var notFollowed: String?

    public init() {}

    public mutating func add(_ other: FeedReport) {
        changes += other.changes
        scopes += other.scopes
        notModified += other.notModified
        pulled += other.pulled
        rebuilt = rebuilt || other.rebuilt
        cursor = other.cursor
        head = other.head
    }

    private enum CodingKeys: String, CodingKey {
        case changes, scopes, rebuilt, cursor, head
        case notModified = "not_modified"
        case pulled
        case notFollowed = "not_followed"
    }
}
