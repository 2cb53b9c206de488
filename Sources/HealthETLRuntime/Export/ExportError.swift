/// Why an export or a report could not be written, said so the person knows what to do.
public enum ExportError: Error, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    case unknownMetric(String)
    case unknownSource(String, known: [String])
    case unsupported(String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .unknownMetric(let name): "unknown metric \(name): `healthetl metrics` lists them"
        case .unknownSource(let name, let known):
            "no samples from a source named \(name); the store's sources: "
                + (known.isEmpty ? "none yet" : known.joined(separator: ", "))
        case .unsupported(let text): text
        }
    }
}
