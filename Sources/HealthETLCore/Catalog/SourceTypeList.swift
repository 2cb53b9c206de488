import Foundation

/// Every type one source format can write, as its makers list them: what `metrics --coverage`
/// measures the catalog against. The lists ship as the resource `source-types.json`.
public struct SourceTypeList: Sendable, Codable {
    /// How a name counts as mapped.
    public enum Match: String, Sendable, Codable {
        /// Some metric answers to the name (HealthKit identifiers, Health Auto Export names).
        case name
        /// Some metric has a Health Connect mapping from this record type.
        case healthConnectRecord = "health_connect_record"
        /// The name is a spelling in the category set `categorySet` (workout activity types).
        case categoryValue = "category_value"
    }

    /// Stable id, e.g. `healthkit`.
    public var id: String
    public var title: String
    public var match: Match
    public var categorySet: String?
    public var names: [String]

    private enum CodingKeys: String, CodingKey {
        case id, title, match, names
        case categorySet = "category_set"
    }

    /// Whether the catalog maps `name`.
    public func maps(_ name: String, in catalog: MetricCatalog) -> Bool {
        switch match {
        case .name:
            return catalog.metric(named: name) != nil
        case .healthConnectRecord:
            return catalog.metrics.contains { $0.healthConnect.contains { $0.record == name } }
        case .categoryValue:
            return categorySet.flatMap { catalog.document.categories[$0]?.values[name] } != nil
        }
    }

    /// The lists shipped with healthetl.
    /// - Throws: `CatalogError` if the resource is missing or broken (a packaging fault).
    public static func bundled() throws -> [SourceTypeList] {
        let label = "bundled source-types.json"
        let data = try BundledResource.json("source-types", label: label)
        do {
            return try JSONDecoder().decode([SourceTypeList].self, from: data)
        } catch let error as DecodingError {
            throw CatalogError(decoding: error, file: label)
        }
    }
}
