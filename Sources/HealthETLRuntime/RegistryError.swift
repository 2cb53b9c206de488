import HealthETLCore

/// A plugin asked for by name or by content that the registry cannot give.
public enum RegistryError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknown(kind: PluginKind, name: String, known: [String])
    /// A source that exists but reads no files (a live stream).
    case readsNoFiles(name: String, reason: String)
    /// No source recognised the input; each one's reason.
    case notRecognized(path: String, reasons: [String])

    public var description: String {
        switch self {
        case .unknown(let kind, let name, let known):
            return "there is no \(kind.rawValue) named \(name); the \(kind.configTable) are "
                + known.joined(separator: ", ") + " (`healthetl plugins` lists them)"
        case .readsNoFiles(let name, let reason):
            return "\(name) cannot import files: \(reason)"
        case .notRecognized(let path, let reasons):
            return "no source can read \(path) — " + reasons.joined(separator: "; ")
        }
    }
}
