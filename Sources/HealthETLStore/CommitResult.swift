import HealthETLCore

/// What one committed batch changed: each sample's outcome, and the counts (`RecordCounts`, read
/// as the result's own: `result.duplicates`) of what the store did with samples, quarantined
/// records, deletions, workouts, summaries and documents.
@dynamicMemberLookup
public struct CommitResult: Equatable, Sendable {
    /// What happened to each of the batch's samples, in batch order.
    public var sampleOutcomes: [SampleOutcome] = []
    /// New samples stored (the normalizer's notes split them into accepted and flagged).
    public var inserted = 0
    /// Quarantined records already in the store.
    public var quarantineDuplicates = 0
    public var counts = RecordCounts()

    public init() {}

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<RecordCounts, Value>) -> Value {
        get { counts[keyPath: keyPath] }
        set { counts[keyPath: keyPath] = newValue }
    }

    /// Adds one sample's outcome.
    mutating func count(_ outcome: SampleOutcome) {
        sampleOutcomes.append(outcome)
        switch outcome {
        case .inserted: inserted += 1
        case .duplicate: counts.duplicates += 1
        case .deletedEarlier: counts.deletedEarlier += 1
        }
    }

    public static func + (lhs: CommitResult, rhs: CommitResult) -> CommitResult {
        var sum = lhs
        sum.sampleOutcomes += rhs.sampleOutcomes
        sum.inserted += rhs.inserted
        sum.quarantineDuplicates += rhs.quarantineDuplicates
        sum.counts = sum.counts + rhs.counts
        return sum
    }
}

/// What the store did with one sample of a batch.
public enum SampleOutcome: Sendable, Equatable {
    case inserted
    /// The same content id is already stored.
    case duplicate
    /// A tombstone newer than the sample's snapshot keeps it out.
    case deletedEarlier
}
