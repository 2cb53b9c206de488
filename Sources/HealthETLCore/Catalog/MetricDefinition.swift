/// One entry of the metric catalog: what a metric is, how its values are checked and rolled up.
public struct MetricDefinition: Hashable, Sendable, Codable {
    /// Stable snake_case id used in the store, the API and on the command line (`heart_rate`).
    public var id: String
    /// A human-readable name.
    public var name: String
    public var kind: MetricKind
    public var aggregation: Aggregation
    /// Every HealthKit identifier of it, e.g. `HKQuantityTypeIdentifierHeartRate` (some types
    /// are written two ways).
    public var healthKit: [String]
    /// Where Health Connect's database keeps it: record type, table, column, stored unit.
    public var healthConnect: [HealthConnectField]
    /// The names Health Auto Export writes for it, with their unit spellings.
    public var healthAutoExport: [HealthAutoExportName]
    /// Where FIT files (Garmin, Wahoo, Coros, Polar, Suunto) keep it: message, field, unit.
    public var fit: [FITField]
    /// Other names sources use for this metric.
    public var aliases: [String]
    /// Canonical unit for quantity kinds, in UCUM unless `ucum` says otherwise.
    public var unit: String?
    /// The UCUM form of the canonical unit, when `unit` is not one itself.
    public var ucum: String?
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
        healthKit: [String] = [], healthConnect: [HealthConnectField] = [],
        healthAutoExport: [HealthAutoExportName] = [], fit: [FITField] = [], aliases: [String] = [],
        unit: String? = nil, ucum: String? = nil, unitSet: String? = nil, category: String? = nil,
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
        self.healthAutoExport = healthAutoExport
        self.fit = fit
        self.aliases = aliases
        self.unit = unit
        self.ucum = ucum
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
        [id] + healthKit + healthConnect.map(\.identifier) + healthAutoExport.map(\.name) + fit.map(\.identifier)
            + aliases
    }

    /// The canonical unit in UCUM (for FHIR).
    public var ucumUnit: String? { ucum ?? unit }

    private enum CodingKeys: String, CodingKey {
        case id, name, kind, aggregation, aliases, unit, ucum, category, hard, plausible, tier, loinc
        case components, fit
        case healthKit = "healthkit"
        case healthConnect = "health_connect"
        case healthAutoExport = "hae"
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
        // One name or a list: the older catalog form wrote a single string.
        if let single = try? c.decodeIfPresent(String.self, forKey: .healthKit) {
            healthKit = [single]
        } else {
            healthKit = try c.decodeIfPresent([String].self, forKey: .healthKit) ?? []
        }
        if let single = try? c.decodeIfPresent(HealthConnectField.self, forKey: .healthConnect) {
            healthConnect = [single]
        } else {
            healthConnect = try c.decodeIfPresent([HealthConnectField].self, forKey: .healthConnect) ?? []
        }
        healthAutoExport = try c.decodeIfPresent([HealthAutoExportName].self, forKey: .healthAutoExport) ?? []
        fit = try c.decodeIfPresent([FITField].self, forKey: .fit) ?? []
        aliases = try c.decodeIfPresent([String].self, forKey: .aliases) ?? []
        unit = try c.decodeIfPresent(String.self, forKey: .unit)
        ucum = try c.decodeIfPresent(String.self, forKey: .ucum)
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
        if !healthKit.isEmpty { try c.encode(healthKit, forKey: .healthKit) }
        if !healthConnect.isEmpty { try c.encode(healthConnect, forKey: .healthConnect) }
        if !healthAutoExport.isEmpty { try c.encode(healthAutoExport, forKey: .healthAutoExport) }
        if !fit.isEmpty { try c.encode(fit, forKey: .fit) }
        if !aliases.isEmpty { try c.encode(aliases, forKey: .aliases) }
        try c.encodeIfPresent(unit, forKey: .unit)
        try c.encodeIfPresent(ucum, forKey: .ucum)
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
