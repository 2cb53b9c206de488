import HealthETLCore

/// What an import did, by outcome and reason; `--json` prints it. Counts add up:
/// `accepted + flagged + quarantined + duplicates + deletedEarlier == recordsRead`, where
/// `recordsRead` counts what this run read (a resumed run starts at `resumedAtByte`).
public struct ImportSummary: Codable, Equatable, Sendable {
    public struct Lanes: Codable, Equatable, Sendable {
        public var hot = 0
        public var cold = 0
        public var change = 0
    }

    /// Records counted apart from the top-level ones: those nested in correlations (stored once,
    /// since exports repeat them at top level) and those derived from other files (ECGs).
    public struct SecondaryRecords: Codable, Equatable, Sendable {
        public var read = 0
        public var stored = 0
        public var alreadyStored = 0
        public var quarantined = 0

        enum CodingKeys: String, CodingKey {
            case read, stored, quarantined
            case alreadyStored = "already_stored"
        }
    }

    public var input: String
    public var source: String
    public var stream: String?
    public var exportDate: String?
    /// Top-level records read.
    public var recordsRead = 0
    /// Newly stored without flags.
    public var accepted = 0
    /// Newly stored with flags.
    public var flagged = 0
    public var quarantined = 0
    /// Already stored, by this or an earlier import.
    public var duplicates = 0
    /// Kept out by a deletion committed earlier: deleted since the export was taken.
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
    public var lanes = Lanes()
    /// Problems that lost nothing, by kind.
    public var warnings: [String: Int] = [:]
    public var complete = false
    /// What made the import partial, and where.
    public var problem: String?
    public var bytesRead: Int64 = 0
    /// Where this run started reading: 0 on a fresh start, the committed position on a resume.
    public var resumedAtByte: Int64 = 0
    /// Hot tier-1 samples delivered to the configured sink before the command returned (0 when
    /// no sink is configured).
    public var tier1Sent = 0
    public var elapsedSeconds = 0.0
    /// Each input's own summary, when one command imported several.
    public var inputs: [ImportSummary]?

    public init(input: String, source: String) {
        self.input = input
        self.source = source
    }

    enum CodingKeys: String, CodingKey {
        case input, source, stream, accepted, flagged, quarantined, duplicates, correlations, tombstones
        case workouts, documents, lanes, warnings, complete, problem, inputs
        case exportDate = "export_date"
        case recordsRead = "records_read"
        case flaggedByReason = "flagged_by_reason"
        case quarantinedByReason = "quarantined_by_reason"
        case correlationComponents = "correlation_components"
        case correlationsQuarantined = "correlations_quarantined"
        case otherRecords = "other_records"
        case workoutDuplicates = "workout_duplicates"
        case activitySummaries = "activity_summaries"
        case bytesRead = "bytes_read"
        case deletedEarlier = "deleted_earlier"
        case resumedAtByte = "resumed_at_byte"
        case tier1Sent = "tier1_sent"
        case elapsedSeconds = "elapsed_s"
    }

    /// The total of warnings of every kind.
    public var warningCount: Int { warnings.values.reduce(0, +) }
}

extension ImportSummary {
    /// Takes the commit-side counts from the engine's tally (what was read is counted while reading).
    mutating func record(_ tally: IngestTally) {
        accepted = tally.accepted
        flagged = tally.flagged
        quarantined = tally.quarantined
        duplicates = tally.duplicates
        deletedEarlier = tally.deletedEarlier
        flaggedByReason = tally.flaggedByReason
        quarantinedByReason = tally.quarantinedByReason
        correlations = tally.correlations
        correlationsQuarantined = tally.correlationsQuarantined
        correlationComponents.stored = tally.correlationComponents.stored
        correlationComponents.alreadyStored = tally.correlationComponents.alreadyStored
        correlationComponents.quarantined = tally.correlationComponents.quarantined
        otherRecords.stored = tally.otherRecords.stored
        otherRecords.alreadyStored = tally.otherRecords.alreadyStored
        otherRecords.quarantined = tally.otherRecords.quarantined
        tombstones = tally.tombstones
        workouts = tally.workouts
        workoutDuplicates = tally.workoutDuplicates
        activitySummaries = tally.activitySummaries
        documents = tally.documents
    }
}
