import HealthETLCore

/// What an import did, by outcome and reason; `--json` prints it as one flat object. Counts add up:
/// `accepted + flagged + quarantined + duplicates + deletedEarlier == recordsRead`, where
/// `recordsRead` counts what this run read (a resumed run starts at `resumedAtByte`).
@dynamicMemberLookup
public struct ImportSummary: Codable, Equatable, Sendable {
    public struct Lanes: Codable, Equatable, Sendable {
        public var hot = 0
        public var cold = 0
        public var change = 0
    }

    public var input: String
    public var source: String
    public var stream: String?
    public var exportDate: String?
    /// Top-level records read.
    public var recordsRead = 0
    /// What became of the records: `summary.accepted` reads `summary.counts.accepted`.
    public var counts = RecordCounts.read()
    public var lanes = Lanes()
    /// Problems that lost nothing, by kind.
    public var warnings: [String: Int] = [:]
    public var complete = false
    /// What made the import partial, and where.
    public var problem: String?
    /// How far this run read, in `positionUnit`s.
    public var bytesRead: Int64 = 0
    /// Where this run started reading, in `positionUnit`s: 0 on a fresh start, the committed
    /// position on a resume.
    public var resumedAtByte: Int64 = 0
    /// What the stream's positions count: `bytes`, `rows` (a database's) or `files`.
    public var positionUnit = "bytes"
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

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<RecordCounts, Value>) -> Value {
        get { counts[keyPath: keyPath] }
        set { counts[keyPath: keyPath] = newValue }
    }

    enum CodingKeys: String, CodingKey {
        case input, source, stream, lanes, warnings, complete, problem, inputs
        case exportDate = "export_date"
        case recordsRead = "records_read"
        case bytesRead = "bytes_read"
        case resumedAtByte = "resumed_at_byte"
        case positionUnit = "position_unit"
        case tier1Sent = "tier1_sent"
        case elapsedSeconds = "elapsed_s"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        input = try container.decode(String.self, forKey: .input)
        source = try container.decode(String.self, forKey: .source)
        stream = try container.decodeIfPresent(String.self, forKey: .stream)
        exportDate = try container.decodeIfPresent(String.self, forKey: .exportDate)
        recordsRead = try container.decode(Int.self, forKey: .recordsRead)
        lanes = try container.decode(Lanes.self, forKey: .lanes)
        warnings = try container.decode([String: Int].self, forKey: .warnings)
        complete = try container.decode(Bool.self, forKey: .complete)
        problem = try container.decodeIfPresent(String.self, forKey: .problem)
        bytesRead = try container.decode(Int64.self, forKey: .bytesRead)
        resumedAtByte = try container.decode(Int64.self, forKey: .resumedAtByte)
        positionUnit = try container.decodeIfPresent(String.self, forKey: .positionUnit) ?? "bytes"
        tier1Sent = try container.decode(Int.self, forKey: .tier1Sent)
        elapsedSeconds = try container.decode(Double.self, forKey: .elapsedSeconds)
        inputs = try container.decodeIfPresent([ImportSummary].self, forKey: .inputs)
        counts = try RecordCounts(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(input, forKey: .input)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(stream, forKey: .stream)
        try container.encodeIfPresent(exportDate, forKey: .exportDate)
        try container.encode(recordsRead, forKey: .recordsRead)
        try container.encode(lanes, forKey: .lanes)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(complete, forKey: .complete)
        try container.encodeIfPresent(problem, forKey: .problem)
        try container.encode(bytesRead, forKey: .bytesRead)
        try container.encode(resumedAtByte, forKey: .resumedAtByte)
        try container.encode(positionUnit, forKey: .positionUnit)
        try container.encode(tier1Sent, forKey: .tier1Sent)
        try container.encode(elapsedSeconds, forKey: .elapsedSeconds)
        try container.encodeIfPresent(inputs, forKey: .inputs)
        try counts.encode(to: encoder)
    }

    /// The total of warnings of every kind.
    public var warningCount: Int { warnings.values.reduce(0, +) }
}

extension ImportSummary {
    /// Takes the commit-side counts from the engine's tally (what was read is counted while reading).
    mutating func record(_ tally: IngestTally) {
        let componentsRead = counts.correlationComponents.read
        let othersRead = counts.otherRecords.read
        counts = tally.counts
        counts.correlationComponents.read = componentsRead
        counts.otherRecords.read = othersRead
    }
}
