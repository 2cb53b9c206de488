import HealthETLCore
import HealthETLSQLite

/// Commit failures a user can act on (opening the store fails with `DatabaseError`). Each message names the thing at fault and the next step.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A batch asked a cursor to move backwards; nothing of the batch was written.
    case cursorMovedBackwards(stream: String, lane: Lane, current: Int64, requested: Int64)
    /// A batch with no cursor advance; refused so a crash cannot commit it twice unnoticed.
    case batchWithoutCursor(stream: String)
    /// A change-feed update whose answer does not fit its scope; nothing of it was written.
    case mismatchedProjection(scope: String)

    public var description: String {
        switch self {
        case .cursorMovedBackwards(let stream, let lane, let current, let requested):
            return "cursor \(stream)/\(lane.rawValue) would move backwards from \(current) to"
                + " \(requested); the batch was not written"
        case .batchWithoutCursor(let stream):
            return "a batch of \(stream) advances no cursor; every batch must move its cursor"
        case .mismatchedProjection(let scope):
            return "the answer pulled for \(scope) is not of its kind; the feed update was not written"
        }
    }
}
