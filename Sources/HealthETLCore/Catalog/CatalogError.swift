/// A catalog file that cannot be used, with where the problem is and what to do about it.
public struct CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file the problem is in (`bundled catalog` for the one shipped with healthetl).
    public var file: String
    /// A path into the document, e.g. `metrics[3].unit_set`, or empty for the whole file.
    public var location: String
    public var problem: String

    public init(file: String, location: String, problem: String) {
        self.file = file
        self.location = location
        self.problem = problem
    }

    public var description: String {
        let place = location.isEmpty ? file : "\(file): \(location)"
        return "\(place): \(problem). Fix the catalog file, or leave out --catalog to use only the"
            + " bundled metrics."
    }
}
