import Foundation

/// The data files shipped as resources of this module.
enum BundledResource {
    /// The bytes of the resource `name.json`: at the top of the module's bundle, where SwiftPM
    /// puts it on Linux, read without asking `Bundle` to look (its search of the bundle's
    /// localizations took 2–3 ms of every start); elsewhere where `Bundle` finds it.
    /// - Throws: `CatalogError` naming `label` if it is missing (a packaging fault).
    static func json(_ name: String, label: String) throws -> Data {
        let bundle = Bundle.module
        if let data = try? Data(contentsOf: bundle.bundleURL.appendingPathComponent(name + ".json")) {
            return data
        }
        guard let url = bundle.url(forResource: name, withExtension: "json"), let data = try? Data(contentsOf: url)
        else {
            throw CatalogError(
                file: label, location: "",
                problem: "is missing from the installation; reinstall healthetl with its resource bundle")
        }
        return data
    }
}
