import HealthETLCore

/// Store failures a user can act on. Each message names the thing at fault and the next step.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file or the directory of the store can be read by other users.
    case unsafePermissions(path: String, mode: UInt32, fix: String)
    /// The store path exists but is not a directory.
    case notADirectory(path: String)
    /// The directory or database could not be created or opened.
    case cannotOpen(path: String, reason: String)
    /// The store was written by a newer healthetl.
    case newerSchema(migration: String)
    /// A batch asked a cursor to move backwards; nothing of the batch was written.
    case cursorMovedBackwards(stream: String, lane: Lane, current: Int64, requested: Int64)
    /// A batch with no cursor advance; refused so a crash cannot commit it twice unnoticed.
    case batchWithoutCursor(stream: String)

    public var description: String {
        switch self {
        case .unsafePermissions(let path, let mode, let fix):
            return "refusing to open the store: \(path) has mode \(String(mode, radix: 8)) and other"
                + " users can read it. Health data must be private; fix it with: \(fix)"
        case .notADirectory(let path):
            return "the store path \(path) is not a directory; pass --store with a directory"
        case .cannotOpen(let path, let reason):
            return "cannot open the store at \(path): \(reason)"
        case .newerSchema(let migration):
            return "the store was written by a newer healthetl (migration \(migration)); upgrade"
                + " healthetl to use it"
        case .cursorMovedBackwards(let stream, let lane, let current, let requested):
            return "cursor \(stream)/\(lane.rawValue) would move backwards from \(current) to"
                + " \(requested); the batch was not written"
        case .batchWithoutCursor(let stream):
            return "a batch of \(stream) advances no cursor; every batch must move its cursor"
        }
    }
}
