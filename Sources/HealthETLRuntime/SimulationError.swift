/// Why `simulate` cannot continue a stream the store already holds.
public enum SimulationError: Error, Equatable, CustomStringConvertible {
    /// The stream was created with other options than the ones given now.
    case conflictingOptions(stream: String, createdWith: [String])
    /// The stored settings do not decode (written by another version, or damaged).
    case unreadableSettings(stream: String, reason: String)

    public var description: String {
        switch self {
        case .conflictingOptions(let stream, let createdWith):
            "\(stream) already exists in this store with other options (it was created with "
                + createdWith.joined(separator: ", ")
                + "); leave those options out to continue it, or use another --seed or --store"
        case .unreadableSettings(let stream, let reason):
            "the store's settings for \(stream) are unreadable (\(reason)); use another --store"
        }
    }
}
