import HealthETLCore
import HealthETLStore

/// What an ingest committed, counted the same way for every source and lane. Counts add up:
/// `accepted + flagged + quarantined + duplicates + deletedEarlier == records`.
public struct IngestTally: Codable, Equatable, Sendable {
    /// Records counted apart from the top-level ones: those nested in correlations (stored once,
    /// since exports repeat them at top level) and those derived from other files (ECGs).
    public struct SecondaryRecords: Codable, Equatable, Sendable {
        public var stored = 0
        public var alreadyStored = 0
        public var quarantined = 0

        public init() {}

        static func + (lhs: Self, rhs: Self) -> Self {
            var sum = lhs
            sum.stored += rhs.stored
            sum.alreadyStored += rhs.alreadyStored
            sum.quarantined += rhs.quarantined
            return sum
        }

        enum CodingKeys: String, CodingKey {
            case stored, quarantined
            case alreadyStored = "already_stored"
        }
    }

    public var batches = 0
    /// Top-level records committed, whatever their outcome.
    public var records = 0
    /// Newly stored without flags.
    public var accepted = 0
    /// Newly stored with flags.
    public var flagged = 0
    public var quarantined = 0
    /// Already stored, by this or an earlier run.
    public var duplicates = 0
    /// Kept out by a deletion committed earlier (a change overtook its backfill, or the export
    /// predates a deletion).
    public var deletedEarlier = 0
    public var flaggedByReason: [String: Int] = [:]
    public var quarantinedByReason: [String: Int] = [:]
    public var correlations = 0
    /// Correlations whose type the catalog does not know (kept in quarantine).
    public var correlationsQuarantined = 0
    public var correlationComponents = SecondaryRecords()
    public var otherRecords = SecondaryRecords()
    public var tombstones = 0
    public var workouts = 0
    public var workoutDuplicates = 0
    public var activitySummaries = 0
    public var documents = 0

    public init() {}

    /// Counts one committed batch, using what the normalizer noted about each of its samples.
    mutating func add(_ result: CommitResult, notes: BatchNotes) {
        batches += 1
        for (index, outcome) in result.sampleOutcomes.enumerated() {
            switch (notes.roles[index], outcome) {
            case (.record, .inserted):
                records += 1
                let flags = notes.flags[index]
                if !flags.needsReview {
                    accepted += 1
                } else {
                    flagged += 1
                    for name in flags.intersection(.review).names { flaggedByReason[name, default: 0] += 1 }
                }
            case (.record, .duplicate):
                records += 1
                duplicates += 1
            case (.record, .previouslyDeleted):
                records += 1
                deletedEarlier += 1
            case (.component, .inserted): correlationComponents.stored += 1
            case (.component, .duplicate), (.component, .previouslyDeleted): correlationComponents.alreadyStored += 1
            case (.auxiliary, .inserted): otherRecords.stored += 1
            case (.auxiliary, .duplicate), (.auxiliary, .previouslyDeleted): otherRecords.alreadyStored += 1
            case (.correlation, _): correlations += 1
            }
        }
        let quarantinedRecords = notes.quarantinedByRole[.record] ?? 0
        records += quarantinedRecords
        quarantined += quarantinedRecords
        correlationComponents.quarantined += notes.quarantinedByRole[.component] ?? 0
        otherRecords.quarantined += notes.quarantinedByRole[.auxiliary] ?? 0
        let correlationsRefused = notes.quarantinedByRole[.correlation] ?? 0
        correlations += correlationsRefused
        correlationsQuarantined += correlationsRefused
        quarantinedByReason.merge(notes.quarantinedByReason, uniquingKeysWith: +)
        tombstones += result.tombstoned
        workouts += result.workouts
        workoutDuplicates += result.workoutDuplicates
        activitySummaries += result.activitySummaries
        documents += result.documents
    }

    public static func + (lhs: IngestTally, rhs: IngestTally) -> IngestTally {
        var sum = lhs
        sum.batches += rhs.batches
        sum.records += rhs.records
        sum.accepted += rhs.accepted
        sum.flagged += rhs.flagged
        sum.quarantined += rhs.quarantined
        sum.duplicates += rhs.duplicates
        sum.deletedEarlier += rhs.deletedEarlier
        sum.flaggedByReason.merge(rhs.flaggedByReason, uniquingKeysWith: +)
        sum.quarantinedByReason.merge(rhs.quarantinedByReason, uniquingKeysWith: +)
        sum.correlations += rhs.correlations
        sum.correlationsQuarantined += rhs.correlationsQuarantined
        sum.correlationComponents = sum.correlationComponents + rhs.correlationComponents
        sum.otherRecords = sum.otherRecords + rhs.otherRecords
        sum.tombstones += rhs.tombstones
        sum.workouts += rhs.workouts
        sum.workoutDuplicates += rhs.workoutDuplicates
        sum.activitySummaries += rhs.activitySummaries
        sum.documents += rhs.documents
        return sum
    }

    enum CodingKeys: String, CodingKey {
        case batches, records, accepted, flagged, quarantined, duplicates, correlations, tombstones, workouts, documents
        case deletedEarlier = "deleted_earlier"
        case flaggedByReason = "flagged_by_reason"
        case quarantinedByReason = "quarantined_by_reason"
        case correlationsQuarantined = "correlations_quarantined"
        case correlationComponents = "correlation_components"
        case otherRecords = "other_records"
        case workoutDuplicates = "workout_duplicates"
        case activitySummaries = "activity_summaries"
    }
}
