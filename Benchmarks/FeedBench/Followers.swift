import CollectorSink
import Foundation
import HealthETLCore
import Synchronization

/// Followers subscribed to the change stream, each noting when each event arrived.
final class Followers: Sendable {
    struct Arrival: Sendable {
        let follower: Int
        let user: Int
        let seq: Int64
        let at: ContinuousClock.Instant
    }

    private let arrivals = Mutex<[Arrival]>([])
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let sinks: [CollectorSink]
    private let users: [Int]

    private init(sinks: [CollectorSink], users: [Int]) {
        self.sinks = sinks
        self.users = users
    }

    /// `perUser` followers of each user, each on its own connection, streaming from the user's head.
    static func start(
        users: [(user: String, token: String)], perUser: Int, sink: (String) throws -> CollectorSink
    ) async throws -> Followers {
        var sinks: [CollectorSink] = []
        var owners: [Int] = []
        for (index, user) in users.enumerated() {
            for _ in 0..<perUser {
                sinks.append(try sink(user.token))
                owners.append(index)
            }
        }
        let followers = Followers(sinks: sinks, users: owners)
        for (follower, sink) in sinks.enumerated() {
            let head = try await FeedBench.head(sink)
            let user = owners[follower]
            let task = Task {
                do {
                    for try await event in sink.changeStream(since: head) {
                        guard case .change(let change) = event else { continue }
                        let arrival = Arrival(follower: follower, user: user, seq: change.seq, at: .now)
                        followers.arrivals.withLock { $0.append(arrival) }
                    }
                } catch {}
            }
            followers.tasks.withLock { $0.append(task) }
        }
        // Every stream open before the clock starts.
        try await Task.sleep(for: .seconds(2))
        return followers
    }

    /// For each commit and each of its user's followers: seconds from the commit's answer, and
    /// from its send, to the event's arrival; and how many events never arrived.
    func latencies(of round: IngestRound) -> (fromCommit: [Double], fromSend: [Double], missing: Int) {
        let arrived = arrivals.withLock { $0 }
        var byKey: [String: ContinuousClock.Instant] = [:]
        for arrival in arrived { byKey["\(arrival.follower)/\(arrival.seq)"] = arrival.at }
        var fromCommit: [Double] = []
        var fromSend: [Double] = []
        var missing = 0
        for commit in round.commits {
            for follower in users.indices where users[follower] == commit.user {
                guard let at = byKey["\(follower)/\(commit.seq)"] else {
                    missing += 1
                    continue
                }
                // The commit is between send and answer: an event may even arrive before the answer.
                fromCommit.append(max(0, (at - commit.answered).seconds))
                fromSend.append((at - commit.sent).seconds)
            }
        }
        return (fromCommit, fromSend, missing)
    }

    func stop() async {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        for sink in sinks { try? await sink.shutdown() }
    }
}
