import Dispatch
import HealthETLSQLite

/// One SQLite connection confined to one serial queue: async callers hand it closures, never
/// the connection itself.
final class DatabaseQueue<State>: @unchecked Sendable {
    private let queue: DispatchQueue
    // Touched only on `queue`.
    private let connection: SQLiteConnection
    private var state: State

    init(label: String, connection: SQLiteConnection, state: State) {
        queue = DispatchQueue(label: label)
        self.connection = connection
        self.state = state
    }

    func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection, inout State) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body(self.connection, &self.state) })
            }
        }
    }
}
