import Foundation

/// The data files shipped as resources of this module.
enum BundledResource {
    /// The bytes of the resource `name.json`.
    /// - Throws: `CatalogError` naming `label` if it is missing (a packaging fault).
    static func json(_ name: String, label: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else {
            throw CatalogError(
                file: label, location: "",
                problem: "is missing from the installation; reinstall healthetl with its resource bundle")
        }
        return data
    }
}
