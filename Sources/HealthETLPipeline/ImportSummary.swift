import HealthETLCore

/// What an import did, by outcome and reason; `--json` prints it. Counts add up:
/// `accepted + flagged + quarantined + duplicates == recordsRead`.
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
    /// Already stored (this or an earlier import), or deleted since the export was taken.
    public var duplicates = 0
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
        case elapsedSeconds = "elapsed_s"
    }

    /// The total of warnings of every kind.
    public var warningCount: Int { warnings.values.reduce(0, +) }
}
