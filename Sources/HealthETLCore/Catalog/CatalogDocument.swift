/// The catalog file as written: the bundled `metric-catalog.json` or a user's `--catalog FILE`.
///
/// ```json
/// { "format": 1,
///   "unit_sets":  { "energy": { "canonical": "kcal", "units": { "kcal": 1, "kJ": 0.239… } } },
///   "categories": { "sleep_stage": { "values": { "HKCategoryValueSleepAnalysisInBed": "in_bed" } } },
///   "metrics":    [ { "id": "active_energy_burned", "kind": "cumulative", … } ] }
/// ```
public struct CatalogDocument: Sendable, Codable {
    public static let currentFormat = 1

    public var format: Int
    public var unitSets: [String: UnitSet]
    public var categories: [String: CategorySet]
    public var metrics: [MetricDefinition]

    public init(
        format: Int = CatalogDocument.currentFormat, unitSets: [String: UnitSet] = [:],
        categories: [String: CategorySet] = [:], metrics: [MetricDefinition] = []
    ) {
        self.format = format
        self.unitSets = unitSets
        self.categories = categories
        self.metrics = metrics
    }

    private enum CodingKeys: String, CodingKey {
        case format, categories, metrics
        case unitSets = "unit_sets"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(Int.self, forKey: .format)
        unitSets = try c.decodeIfPresent([String: UnitSet].self, forKey: .unitSets) ?? [:]
        categories = try c.decodeIfPresent([String: CategorySet].self, forKey: .categories) ?? [:]
        metrics = try c.decodeIfPresent([MetricDefinition].self, forKey: .metrics) ?? []
    }
}
