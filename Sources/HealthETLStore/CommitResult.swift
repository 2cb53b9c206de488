/// What one committed batch changed.
public struct CommitResult: Equatable, Sendable {
    /// New samples stored.
    public var inserted = 0
    /// Samples already in the store (same content id): not stored again.
    public var duplicates = 0
    /// New quarantine entries.
    public var quarantined = 0
    /// Quarantined records already in the store.
    public var quarantineDuplicates = 0
    /// Tombstones recorded (the sample removed if it was here).
    public var tombstoned = 0

    public init() {}

    public static func + (lhs: CommitResult, rhs: CommitResult) -> CommitResult {
        var sum = lhs
        sum.inserted += rhs.inserted
        sum.duplicates += rhs.duplicates
        sum.quarantined += rhs.quarantined
        sum.quarantineDuplicates += rhs.quarantineDuplicates
        sum.tombstoned += rhs.tombstoned
        return sum
    }
}
