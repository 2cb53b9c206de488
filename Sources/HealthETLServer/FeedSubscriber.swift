import Synchronization

/// One open `GET /v1/changes/stream`: its wake-ups (at most one waiting), whether its user's feed
/// advanced since it last read, and since when its current write has been waiting.
final class FeedSubscriber: Sendable {
    let id: Int
    let user: String
    let wakeups: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let changed = Atomic<Bool>(true)
    private let writing = Mutex<ContinuousClock.Instant?>(nil)
    private let close: @Sendable () -> Void

    init(id: Int, user: String, close: @escaping @Sendable () -> Void) {
        self.id = id
        self.user = user
        self.close = close
        (wakeups, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func notify(changed: Bool) {
        if changed { self.changed.store(true, ordering: .releasing) }
        continuation.yield()
    }

    /// Whether the feed advanced since the last call.
    func takeChanged() -> Bool { changed.exchange(false, ordering: .acquiringAndReleasing) }

    var writeStarted: ContinuousClock.Instant? { writing.withLock { $0 } }

    /// Runs one write, timed for the hub's stall check.
    func timing<T>(_ write: () async throws -> T) async rethrows -> T {
        writing.withLock { $0 = .now }
        defer { writing.withLock { $0 = nil } }
        return try await write()
    }

    func finish() { continuation.finish() }

    func closeConnection() {
        finish()
        close()
    }
}
