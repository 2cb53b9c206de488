import Synchronization

/// The batch ids being processed right now, per user: a second request with the same key while
/// the first is still running gets 409 instead of racing it.
final class InFlightBatches: Sendable {
    private struct Key: Hashable {
        let user: String
        let batch: String
    }

    private let keys = Mutex(Set<Key>())

    /// - Returns: false when the key is already in flight.
    func claim(user: String, batch: String) -> Bool {
        keys.withLock { $0.insert(Key(user: user, batch: batch)).inserted }
    }

    func release(user: String, batch: String) {
        _ = keys.withLock { $0.remove(Key(user: user, batch: batch)) }
    }
}
