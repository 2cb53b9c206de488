import AppleHealth
import HealthETLCore

/// The source adapters this build knows, by their stable registry names. Explicit on purpose.
enum SourceRegistry {
    static let adapters: [any SourceAdapter] = [AppleHealthAdapter()]

    /// The first adapter that recognises the input by its content, or every adapter's reason
    /// for refusing it.
    static func adapter(for input: SourceInput) -> Result<any SourceAdapter, CommandFailure> {
        var reasons: [String] = []
        for adapter in adapters {
            switch adapter.recognize(input) {
            case .recognized: return .success(adapter)
            case .notRecognized(let reason): reasons.append("\(type(of: adapter).name): \(reason)")
            }
        }
        return .failure(CommandFailure("no source can read \(input.path) — " + reasons.joined(separator: "; ")))
    }
}
