/// A projections query that cannot be answered as asked.
public enum ProjectionQueryError: Error, Equatable, CustomStringConvertible {
    case unknownMetric(String)

    public var description: String {
        switch self {
        case .unknownMetric(let name): "the catalog has no metric \(name); `healthetl metrics` lists them"
        }
    }
}
