/// A source adapter that broke the plugin contract.
public enum IngestError: Error, CustomStringConvertible {
    /// Records arrived before `.streamStarted` named their stream.
    case noStream(source: String)

    public var description: String {
        switch self {
        case .noStream(let source):
            return "the \(source) adapter emitted records before naming its stream; this is a bug in healthetl"
        }
    }
}
