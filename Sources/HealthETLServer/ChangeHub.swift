import HealthETLCore
import Prometheus
import Synchronization

/// The change feed's live subscribers (`GET /v1/changes/stream`), at most so many per user.
///
/// A commit only sets a flag and wakes the user's subscribers, and keeps its change among the
/// user's most recent ones (`recentPerUser`): subscribers read the changes from there, or from the
/// database when they are further behind, so nothing is ever buffered per subscriber and no commit
/// waits on one.
/// A clock tick wakes every subscriber each second, for heartbeats and for commits made by other
/// collectors on a shared database; a subscriber whose write has not completed within the write
/// timeout (a client that stopped reading) has its connection closed.
final class ChangeHub: Sendable {
    let maximumPerUser: Int
    let writeTimeout: Duration
    /// Changes kept in memory per user: a subscriber within them reads no database.
    static let recentPerUser = 256

    private struct State {
        var subscribers: [Int: FeedSubscriber] = [:]
        /// Per user, the latest changes this collector committed, by sequence.
        var recent: [String: [FeedChange]] = [:]
        var nextID = 0
        var closed = false
    }

    private let state = Mutex(State())
    /// The metrics' count of open streams.
    private let streamsOpen: Gauge?

    init(maximumPerUser: Int = 16, writeTimeout: Duration = .seconds(10), streamsOpen: Gauge? = nil) {
        self.maximumPerUser = maximumPerUser
        self.writeTimeout = writeTimeout
        self.streamsOpen = streamsOpen
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
            streamsOpen?.increment()
            return subscriber
        }
    }

    func unsubscribe(_ subscriber: FeedSubscriber) {
        if state.withLock({ $0.subscribers.removeValue(forKey: subscriber.id) }) != nil { streamsOpen?.decrement() }
        subscriber.finish()
    }

    /// `user`'s feed advanced, by `change` when this collector knows it.
    func publish(user: String, change: FeedChange?) {
        if let change {
            state.withLock { state in
                var recent = state.recent[user, default: []]
                // Commits of one user may be answered out of order: keep the list sorted.
                let position = recent.lastIndex { $0.seq < change.seq }.map { $0 + 1 } ?? 0
                recent.insert(change, at: position)
                if recent.count > Self.recentPerUser { recent.removeFirst(recent.count - Self.recentPerUser) }
                state.recent[user] = recent
            }
        }
        for subscriber in subscribers() where subscriber.user == user { subscriber.notify(changed: true) }
    }

    /// The user's changes right after `cursor`, without a gap, from memory; nil when memory cannot
    /// say (the next one is older than those kept, or missing: another collector committed it),
    /// and the database must be read.
    func recent(user: String, after cursor: Int64) -> [FeedChange]? {
        state.withLock { state in
            let recent = state.recent[user] ?? []
            guard let first = recent.firstIndex(where: { $0.seq > cursor }) else { return [] }
            guard recent[first].seq == cursor + 1 else { return nil }
            var run = [recent[first]]
            for change in recent[(first + 1)...] {
                guard change.seq == run[run.count - 1].seq + 1 else { break }
                run.append(change)
            }
            return run
        }
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

    private func subscribers() -> [FeedSubscriber] { state.withLock { Array($0.subscribers.values) } }
}
