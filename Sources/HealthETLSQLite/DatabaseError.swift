/// Failures opening a database a user can act on. Each message names the file at fault and the
/// next step.
public enum DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file or the directory of the database can be read by other users.
    case unsafePermissions(path: String, mode: UInt32, fix: String)
    /// The database path exists but is not a directory.
    case notADirectory(path: String)
    /// The directory or database could not be created or opened.
    case cannotOpen(path: String, reason: String)
    /// The database was written by a newer healthetl.
    case newerSchema(migration: String)
    /// The file is not a SQLite database, or its pages fail SQLite's own check.
    case damaged(path: String, finding: String)

    public var description: String {
        switch self {
        case .unsafePermissions(let path, let mode, let fix):
            return "refusing to open \(path): it has mode \(String(mode, radix: 8)) and other"
                + " users can read it. Health data must be private; fix it with: \(fix)"
        case .notADirectory(let path):
            return "\(path) is not a directory; pass a directory (--store or --data)"
        case .cannotOpen(let path, let reason):
            return "cannot open \(path): \(reason)"
        case .newerSchema(let migration):
            return "the database was written by a newer healthetl (migration \(migration)); upgrade"
                + " healthetl to use it"
        case .damaged(let path, let finding):
            return "\(path) is damaged (\(finding)); restore it from a backup, or move it aside to"
                + " start afresh"
        }
    }
}
