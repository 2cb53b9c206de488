import Foundation

extension MetricCatalog {
    /// The label error messages use for the catalog shipped with healthetl.
    public static let bundledFileLabel = "bundled metric-catalog.json"

    /// The catalog shipped with healthetl as a resource of this module, read once per process:
    /// decoding and checking its 170 KB takes several milliseconds, and the plugins take it for
    /// every input they read.
    /// - Throws: `CatalogError` if the resource is missing or broken (a packaging fault).
    public static func bundled() throws -> MetricCatalog {
        try bundledCatalog.get()
    }

    /// Starts reading the bundled catalog on a thread of its own, so that what a command does
    /// before it needs the catalog (an import opening its store) overlaps it; `bundled()` waits
    /// for it. Started with the process instead, it made a one-record import slower, not faster:
    /// both threads were filling the runtime's type caches at once.
    public static func prepareBundled() {
        Thread.detachNewThread { _ = bundledCatalog }
    }

    private static let bundledCatalog: Result<MetricCatalog, CatalogError> = {
        do {
            let data = try BundledResource.json("metric-catalog", label: bundledFileLabel)
            return .success(try MetricCatalog(json: data, file: bundledFileLabel))
        } catch let error as CatalogError {
            return .failure(error)
        } catch {
            return .failure(CatalogError(file: bundledFileLabel, location: "", problem: "cannot be read (\(error))"))
        }
    }()
}
