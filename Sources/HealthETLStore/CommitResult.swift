/// What one committed batch changed.
public struct CommitResult: Equatable, Sendable {
    /// What happened to each of the batch's samples, in batch order.
    public var sampleOutcomes: [SampleOutcome] = []
    /// New samples stored.
    public var inserted = 0
    /// Samples already in the store (same content id): not stored again.
    public var duplicates = 0
    /// Samples a tombstone keeps out: deleted after the snapshot they come from was taken.
    public var previouslyDeleted = 0
    /// New quarantine entries.
    public var quarantined = 0
    /// Quarantined records already in the store.
    public var quarantineDuplicates = 0
    /// Tombstones recorded (the sample removed if it was here).
    public var tombstoned = 0
    /// New workouts, and workouts already stored.
    public var workouts = 0
    public var workoutDuplicates = 0
    /// Activity summaries stored or changed.
    public var activitySummaries = 0
    /// New export documents (characteristics, clinical records, ECGs, …).
    public var documents = 0

    public init() {}

    public static func + (lhs: CommitResult, rhs: CommitResult) -> CommitResult {
        var sum = lhs
        sum.sampleOutcomes += rhs.sampleOutcomes
        sum.inserted += rhs.inserted
        sum.duplicates += rhs.duplicates
        sum.previouslyDeleted += rhs.previouslyDeleted
        sum.quarantined += rhs.quarantined
        sum.quarantineDuplicates += rhs.quarantineDuplicates
        sum.tombstoned += rhs.tombstoned
        sum.workouts += rhs.workouts
        sum.workoutDuplicates += rhs.workoutDuplicates
        sum.activitySummaries += rhs.activitySummaries
        sum.documents += rhs.documents
        return sum
    }
}

/// What the store did with one sample of a batch.
public enum SampleOutcome: Sendable, Equatable {
    case inserted
    /// The same content id is already stored.
    case duplicate
    /// A tombstone newer than the sample's snapshot keeps it out.
    case previouslyDeleted
}
