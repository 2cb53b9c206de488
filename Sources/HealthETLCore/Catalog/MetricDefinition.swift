/// One entry of the metric catalog: what a metric is, how its values are checked and rolled up.
public struct MetricDefinition: Hashable, Sendable, Codable {
    /// Stable snake_case id used in the store, the API and on the command line (`heart_rate`).
    public var id: String
    /// A human-readable name.
    public var name: String
    public var kind: MetricKind
    public var aggregation: Aggregation
    /// HealthKit identifier, e.g. `HKQuantityTypeIdentifierHeartRate`.
    public var healthKit: String?
    /// Health Connect record type, e.g. `HeartRate`.
    public var healthConnect: String?
    /// Other names sources use for this metric (Health Auto Export's `step_count`, …).
    public var aliases: [String]
    /// Canonical UCUM unit for quantity kinds.
    public var unit: String?
    /// Name of the unit set whose spellings are accepted (quantity kinds).
    public var unitSet: String?
    /// Name of the category set of values (category kind).
    public var category: String?
    /// Whether a record may come without a value (events, sessions).
    public var valueOptional: Bool
    /// Values outside these limits cannot be physical: the record is quarantined.
    public var hard: ValueRange?
    /// Values outside this range are kept but flagged. For cumulative metrics it is per day.
    public var plausible: ValueRange?
    /// Longest plausible single sample, in seconds; longer ones are flagged.
    public var plausibleMaxDurationSeconds: Double?
    /// Longest sample stored at all, in seconds (default `SampleBounds.longestSpanSeconds`);
    /// longer ones are quarantined on import and refused by the collector.
    public var hardMaxDurationSeconds: Double?
    /// Upload tier: 1 goes out in real time, 2 in the nightly batch.
    public var tier: Int
    public var loinc: String?
    /// Component metric ids of a correlation.
    public var components: [String]

    public init(
        id: String, name: String, kind: MetricKind, aggregation: Aggregation,
        healthKit: String? = nil, healthConnect: String? = nil, aliases: [String] = [],
        unit: String? = nil, unitSet: String? = nil, category: String? = nil,
        valueOptional: Bool = false, hard: ValueRange? = nil, plausible: ValueRange? = nil,
        plausibleMaxDurationSeconds: Double? = nil, hardMaxDurationSeconds: Double? = nil, tier: Int = 2,
        loinc: String? = nil, components: [String] = []
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.aggregation = aggregation
        self.healthKit = healthKit
        self.healthConnect = healthConnect
        self.aliases = aliases
        self.unit = unit
        self.unitSet = unitSet
        self.category = category
        self.valueOptional = valueOptional
        self.hard = hard
        self.plausible = plausible
        self.plausibleMaxDurationSeconds = plausibleMaxDurationSeconds
        self.hardMaxDurationSeconds = hardMaxDurationSeconds
        self.tier = tier
        self.loinc = loinc
        self.components = components
    }

    /// Every name a source may use for this metric, the id first.
    public var identifiers: [String] {
        [id] + [healthKit, healthConnect].compactMap { $0 } + aliases
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, kind, aggregation, aliases, unit, category, hard, plausible, tier, loinc
        case components
        case healthKit = "healthkit"
        case healthConnect = "health_connect"
        case unitSet = "unit_set"
        case valueOptional = "value_optional"
        case plausibleMaxDurationSeconds = "plausible_max_duration_s"
        case hardMaxDurationSeconds = "hard_max_duration_s"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? id
        kind = try c.decode(MetricKind.self, forKey: .kind)
        aggregation = try c.decode(Aggregation.self, forKey: .aggregation)
        healthKit = try c.decodeIfPresent(String.self, forKey: .healthKit)
        healthConnect = try c.decodeIfPresent(String.self, forKey: .healthConnect)
        aliases = try c.decodeIfPresent([String].self, forKey: .aliases) ?? []
        unit = try c.decodeIfPresent(String.self, forKey: .unit)
        unitSet = try c.decodeIfPresent(String.self, forKey: .unitSet)
        category = try c.decodeIfPresent(String.self, forKey: .category)
        valueOptional = try c.decodeIfPresent(Bool.self, forKey: .valueOptional) ?? false
        hard = try c.decodeIfPresent(ValueRange.self, forKey: .hard)
        plausible = try c.decodeIfPresent(ValueRange.self, forKey: .plausible)
        plausibleMaxDurationSeconds = try c.decodeIfPresent(
            Double.self, forKey: .plausibleMaxDurationSeconds)
        hardMaxDurationSeconds = try c.decodeIfPresent(Double.self, forKey: .hardMaxDurationSeconds)
        tier = try c.decodeIfPresent(Int.self, forKey: .tier) ?? 2
        loinc = try c.decodeIfPresent(String.self, forKey: .loinc)
        components = try c.decodeIfPresent([String].self, forKey: .components) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(kind, forKey: .kind)
        try c.encode(aggregation, forKey: .aggregation)
        try c.encodeIfPresent(healthKit, forKey: .healthKit)
        try c.encodeIfPresent(healthConnect, forKey: .healthConnect)
        if !aliases.isEmpty { try c.encode(aliases, forKey: .aliases) }
        try c.encodeIfPresent(unit, forKey: .unit)
        try c.encodeIfPresent(unitSet, forKey: .unitSet)
        try c.encodeIfPresent(category, forKey: .category)
        if valueOptional { try c.encode(true, forKey: .valueOptional) }
        try c.encodeIfPresent(hard, forKey: .hard)
        try c.encodeIfPresent(plausible, forKey: .plausible)
        try c.encodeIfPresent(plausibleMaxDurationSeconds, forKey: .plausibleMaxDurationSeconds)
        try c.encodeIfPresent(hardMaxDurationSeconds, forKey: .hardMaxDurationSeconds)
        try c.encode(tier, forKey: .tier)
        try c.encodeIfPresent(loinc, forKey: .loinc)
        if !components.isEmpty { try c.encode(components, forKey: .components) }
    }
}
