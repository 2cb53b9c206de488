/// Which projections the sink may have: per metric the local days its samples touch, and the feed
/// sequence the extent is at least as new as.
public struct ProjectionExtent: Sendable, Equatable {
    public let head: Int64
    public let days: [String: ClosedRange<CivilDate>]

    public init(head: Int64, days: [String: ClosedRange<CivilDate>]) {
        self.head = head
        self.days = days
    }
}
