import HealthETLCore
import HealthETLStore

/// What an ingest committed, counted the same way for every source and lane: the batches, the
/// top-level records, and what became of them (`RecordCounts`, read as the tally's own:
/// `tally.accepted`). Counts add up: `accepted + flagged + quarantined + duplicates +
/// deletedEarlier == records`.
@dynamicMemberLookup
public struct IngestTally: Codable, Equatable, Sendable {
    public var batches = 0
    /// Top-level records committed, whatever their outcome.
    public var records = 0
    public var counts = RecordCounts()

    public init() {}

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<RecordCounts, Value>) -> Value {
        get { counts[keyPath: keyPath] }
        set { counts[keyPath: keyPath] = newValue }
    }

    /// Counts one committed batch, using what the normalizer noted about each of its samples.
    mutating func add(_ result: CommitResult, notes: BatchNotes) {
        batches += 1
        for (index, outcome) in result.sampleOutcomes.enumerated() {
            switch (notes.roles[index], outcome) {
            case (.record, .inserted):
                records += 1
                let flags = notes.flags[index]
                if !flags.needsReview {
                    counts.accepted += 1
                } else {
                    counts.flagged += 1
                    for name in flags.intersection(.review).names { counts.flaggedByReason[name, default: 0] += 1 }
                }
            case (.record, .duplicate):
                records += 1
                counts.duplicates += 1
            case (.record, .deletedEarlier):
                records += 1
                counts.deletedEarlier += 1
            case (.component, .inserted): counts.correlationComponents.stored += 1
            case (.component, .duplicate), (.component, .deletedEarlier):
                counts.correlationComponents.alreadyStored += 1
            case (.auxiliary, .inserted): counts.otherRecords.stored += 1
            case (.auxiliary, .duplicate), (.auxiliary, .deletedEarlier): counts.otherRecords.alreadyStored += 1
            case (.correlation, _): counts.correlations += 1
            }
        }
        let quarantinedRecords = notes.quarantinedByRole[.record] ?? 0
        records += quarantinedRecords
        counts.quarantined += quarantinedRecords
        counts.correlationComponents.quarantined += notes.quarantinedByRole[.component] ?? 0
        counts.otherRecords.quarantined += notes.quarantinedByRole[.auxiliary] ?? 0
        let correlationsRefused = notes.quarantinedByRole[.correlation] ?? 0
        counts.correlations += correlationsRefused
        counts.correlationsQuarantined += correlationsRefused
        counts.quarantinedByReason.merge(notes.quarantinedByReason, uniquingKeysWith: +)
        counts.tombstones += result.tombstones
        counts.workouts += result.workouts
        counts.workoutDuplicates += result.workoutDuplicates
        counts.activitySummaries += result.activitySummaries
        counts.documents += result.documents
    }

    public static func + (lhs: IngestTally, rhs: IngestTally) -> IngestTally {
        var sum = lhs
        sum.batches += rhs.batches
        sum.records += rhs.records
        sum.counts = sum.counts + rhs.counts
        return sum
    }

    // One flat object: the counts beside the batches and records.
    enum CodingKeys: String, CodingKey {
        case batches, records
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        batches = try container.decode(Int.self, forKey: .batches)
        records = try container.decode(Int.self, forKey: .records)
        counts = try RecordCounts(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(batches, forKey: .batches)
        try container.encode(records, forKey: .records)
        try counts.encode(to: encoder)
    }
}
