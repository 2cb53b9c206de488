/// What became of records, by outcome and reason: the one set of counters a committed batch, an
/// ingest's lane and an import's summary share, with one `+`. For the top-level records the
/// counts add up: `accepted + flagged + quarantined + duplicates + deletedEarlier` is every
/// record counted.
public struct RecordCounts: Codable, Equatable, Sendable {
    /// Records counted apart from the top-level ones: those nested in correlations (stored once,
    /// since exports repeat them at top level) and those derived from other files (ECGs).
    public struct Secondary: Codable, Equatable, Sendable {
        /// Read from the input; `nil` where only commits are counted.
        public var read: Int?
        public var stored = 0
        public var alreadyStored = 0
        public var quarantined = 0

        public init(read: Int? = nil) { self.read = read }

        public static func + (lhs: Secondary, rhs: Secondary) -> Secondary {
            var sum = lhs
            if let other = rhs.read { sum.read = (sum.read ?? 0) + other }
            sum.stored += rhs.stored
            sum.alreadyStored += rhs.alreadyStored
            sum.quarantined += rhs.quarantined
            return sum
        }

        enum CodingKeys: String, CodingKey {
            case read, stored, quarantined
            case alreadyStored = "already_stored"
        }
    }

    /// Newly stored without flags.
    public var accepted = 0
    /// Newly stored with flags.
    public var flagged = 0
    public var quarantined = 0
    /// Already stored, by this or an earlier run.
    public var duplicates = 0
    /// Kept out by a deletion committed earlier: a change overtook its backfill, or the export
    /// predates the deletion.
    public var deletedEarlier = 0
    public var flaggedByReason: [String: Int] = [:]
    public var quarantinedByReason: [String: Int] = [:]
    public var correlations = 0
    /// Correlations whose type the catalog does not know (kept in quarantine).
    public var correlationsQuarantined = 0
    public var correlationComponents = Secondary()
    public var otherRecords = Secondary()
    /// Deletions recorded (the sample removed if it was stored).
    public var tombstones = 0
    /// New workouts, and workouts already stored.
    public var workouts = 0
    public var workoutDuplicates = 0
    /// Activity summaries stored or changed.
    public var activitySummaries = 0
    /// New export documents (characteristics, clinical records, ECGs, …).
    public var documents = 0

    public init() {}

    /// Counts that also say how many secondary records were read (an import's summary).
    public static func read() -> RecordCounts {
        var counts = RecordCounts()
        counts.correlationComponents.read = 0
        counts.otherRecords.read = 0
        return counts
    }

    public static func + (lhs: RecordCounts, rhs: RecordCounts) -> RecordCounts {
        var sum = lhs
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
        case accepted, flagged, quarantined, duplicates, correlations, tombstones, workouts, documents
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
