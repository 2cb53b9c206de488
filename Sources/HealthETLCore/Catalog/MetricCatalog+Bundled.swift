import Foundation

extension MetricCatalog {
    /// The label error messages use for the catalog shipped with healthetl.
    public static let bundledFileLabel = "bundled metric-catalog.json"

    /// The catalog shipped with healthetl as a resource of this module.
    /// - Throws: `CatalogError` if the resource is missing or broken (a packaging fault).
    public static func bundled() throws -> MetricCatalog {
        let data = try BundledResource.json("metric-catalog", label: bundledFileLabel)
        return try MetricCatalog(json: data, file: bundledFileLabel)
    }
}
