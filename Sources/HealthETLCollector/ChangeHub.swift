import Synchronization

/// The change feed's live subscribers (`GET /v1/changes/stream`), at most so many per user.
///
/// A commit only sets a flag and wakes the user's subscribers: each subscriber reads the changes
/// from the database itself, so nothing is ever buffered per subscriber and no commit waits on one.
/// A clock tick wakes every subscriber each second, for heartbeats and for commits made by other
/// collectors on a shared database; a subscriber whose write has not completed within the write
/// timeout (a client that stopped reading) has its connection closed.
final class ChangeHub: Sendable {
    let maximumPerUser: Int
    let writeTimeout: Duration

    private struct State {
        var subscribers: [Int: FeedSubscriber] = [:]
        var nextID = 0
        var closed = false
    }

    private let state = Mutex(State())

    init(maximumPerUser: Int = 16, writeTimeout: Duration = .seconds(10)) {
        self.maximumPerUser = maximumPerUser
        self.writeTimeout = writeTimeout
    }

    /// A new subscriber of `user`'s changes; nil when the user has the most already or the hub closed.
    func subscribe(user: String, close: @escaping @Sendable () -> Void) -> FeedSubscriber? {
        state.withLock { state in
            guard !state.closed, state.subscribers.values.count(where: { $0.user == user }) < maximumPerUser else {
                return nil
            }
            state.nextID += 1
            let subscriber = FeedSubscriber(id: state.nextID, user: user, close: close)
            state.subscribers[subscriber.id] = subscriber
            return subscriber
        }
    }

    func unsubscribe(_ subscriber: FeedSubscriber) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: subscriber.id) }
        subscriber.finish()
    }

    /// `user`'s feed advanced.
    func publish(user: String) {
        for subscriber in subscribers() where subscriber.user == user { subscriber.notify(changed: true) }
    }

    /// Wakes every subscriber, and closes the connections of those stuck in a write.
    func tick(now: ContinuousClock.Instant = .now) {
        for subscriber in subscribers() {
            if let started = subscriber.writeStarted, now - started > writeTimeout {
                subscriber.closeConnection()
            } else {
                subscriber.notify(changed: false)
            }
        }
    }

    /// Ends every stream (graceful shutdown) and takes no new subscriber.
    func close() {
        let all = state.withLock { state in
            state.closed = true
            return Array(state.subscribers.values)
        }
        for subscriber in all { subscriber.finish() }
    }

    var count: Int { state.withLock { $0.subscribers.count } }

    private func subscribers() -> [FeedSubscriber] { state.withLock { Array($0.subscribers.values) } }
}
