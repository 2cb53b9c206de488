/// Why a Health Connect export cannot be read at all, in words a user can act on.
public enum HealthConnectError: Error, Equatable, CustomStringConvertible {
    /// The file is not a SQLite database (a zip's other entry, a truncated copy, another format).
    case notADatabase(path: String)
    /// A zip without a SQLite database among its entries (the first few named).
    case noDatabaseEntry(path: String, entries: [String])
    /// SQLite's own check found damage; the first findings.
    case damaged(path: String, finding: String)
    /// SQLite could not open or read it.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notADatabase(let path):
            "\(path) is not a Health Connect database (not SQLite); export again from Settings → Health Connect → Export"
        case .noDatabaseEntry(let path, let entries):
            "\(path) is a zip without a Health Connect database (no health_connect_export.db; it holds "
                + (entries.isEmpty ? "nothing" : entries.joined(separator: ", "))
                + "); pass the zip Settings → Health Connect → Export wrote, or its .db"
        case .damaged(let path, let finding):
            "\(path) is damaged (\(finding)); export again from the phone"
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        }
    }
}
