import Foundation

extension MetricCatalog {
    /// The label error messages use for the catalog shipped with healthetl.
    public static let bundledFileLabel = "bundled metric-catalog.json"

    /// The catalog shipped with healthetl as a resource of this module.
    /// - Throws: `CatalogError` if the resource is missing or broken (a packaging fault).
    public static func bundled() throws -> MetricCatalog {
        guard let url = Bundle.module.url(forResource: "metric-catalog", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else {
            throw CatalogError(
                file: bundledFileLabel, location: "",
                problem: "is missing from the installation; reinstall healthetl with its resource bundle")
        }
        return try MetricCatalog(json: data, file: bundledFileLabel)
    }
}
