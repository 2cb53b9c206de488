import CollectorSink
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import Synchronization

struct FeedBench {
    let url: String
    let tokens: [(user: String, token: String)]
    let work: String
    /// The users whose batches the followers follow; the last token is the catch-up user.
    var users: [(user: String, token: String)] { Array(tokens.dropLast()) }
    static let followersPerUser = 10
    static let batchesPerUser = 10
    static let samplesPerBatch = 2_000
    static let senders = 4
    static let roundPairs = 4

    func sink(_ token: String) throws -> CollectorSink {
        CollectorSink(
            configuration: try CollectorSinkConfiguration(
                endpoint: url, token: try CollectorToken(token), requestTimeout: .seconds(60)))
    }

    func run() async throws -> FeedReport {
        var report = FeedReport()
        let senders = try users.map { try sink($0.token) }
        defer { for sender in senders { Task { try? await sender.shutdown() } } }
        // Warm the collector (and SQLite's cache) with one round first.
        _ = try await ingest(senders, round: 0, arrivals: nil)

        var without: [IngestRound] = []
        var with: [IngestRound] = []
        var latencies: [Double] = []
        var latenciesFromSend: [Double] = []
        var missing = 0
        // Alternating rounds: this machine's speed drifts by ±15 % within a minute.
        for round in 1...Self.roundPairs {
            without.append(try await ingest(senders, round: round * 2 - 1, arrivals: nil))
            let followers = try await Followers.start(users: users, perUser: Self.followersPerUser, sink: sink)
            let measured = try await ingest(senders, round: round * 2, arrivals: followers)
            with.append(measured)
            // Every event has arrived, or never will: wait a little for the last ones.
            try await Task.sleep(for: .seconds(2))
            let (fromCommit, fromSend, lost) = followers.latencies(of: measured)
            latencies += fromCommit
            latenciesFromSend += fromSend
            missing += lost
            await followers.stop()
        }
        report.ingest(without: without, with: with, latencies: latencies, fromSend: latenciesFromSend, missing: missing)
        try await catchUp(into: &report)
        return report
    }

    /// Every user sends `batchesPerUser` batches of heart rate, one at a time per user, `senders` users at once.
    func ingest(_ sinks: [CollectorSink], round: Int, arrivals: Followers?) async throws -> IngestRound {
        let clock = ContinuousClock()
        let started = clock.now
        let commits = CommitLog()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<Self.senders {
                group.addTask {
                    for (index, sink) in sinks.enumerated() where index % Self.senders == worker {
                        let head = try await Self.head(sink)
                        for batch in 0..<Self.batchesPerUser {
                            let payload = try sink.encode(
                                Self.batch(user: index, round: round, batch: batch))
                            let sent = clock.now
                            _ = try await sink.deliver(batchID: "r\(round)-b\(batch)", payload: payload)
                            commits.add(
                                Commit(user: index, seq: head + Int64(batch) + 1, sent: sent, answered: clock.now))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = (clock.now - started).seconds
        let samples = sinks.count * Self.batchesPerUser * Self.samplesPerBatch
        return IngestRound(samples: samples, seconds: seconds, commits: commits.all)
    }

    static func head(_ sink: CollectorSink) async throws -> Int64 {
        guard case .page(let page) = try await sink.changes(since: 0, limit: 1) else { return 0 }
        return page.head
    }

    /// A batch of heart rate over one local day of its own, a sample every 43 s.
    static func batch(user: Int, round: Int, batch: Int) -> DeliveryBatch {
        let day = Int64(20_000 + round * 40 + batch)
        var samples: [Sample] = []
        samples.reserveCapacity(samplesPerBatch)
        for index in 0..<samplesPerBatch {
            let start = Instant(millisecondsSinceEpoch: day * 86_400_000 + Int64(index) * 43_000)
            let value = 55 + Double((index * 7 + user) % 40)
            samples.append(
                Sample(
                    id: ContentID(
                        metric: "heart_rate", source: "Bench watch \(user)", start: start, end: start,
                        value: String(value), unit: nil),
                    metric: "heart_rate", sourceName: "Bench watch \(user)", start: start, end: start,
                    utcOffsetSeconds: 0, value: value))
        }
        return DeliveryBatch(batchID: "r\(round)-b\(batch)", samples: samples, deletions: [])
    }

    /// A follower catching up 365 changed days (one batch of steps per day), then a rebuild of
    /// unchanged projections (304s only).
    func catchUp(into report: inout FeedReport) async throws {
        guard let catcher = tokens.last else { return }
        let sink = try sink(catcher.token)
        defer { Task { try? await sink.shutdown() } }
        let directory = StoreDirectory(path: work + "/catch-up-store")
        let store = try Store(directory: directory)
        let follower = FeedFollower(store: store, sink: sink, endpoint: url)
        _ = try await follower.catchUp()
        let first = CivilDate(year: 2025, month: 1, day: 1)!
        for index in 0..<365 {
            let day = first.adding(days: Int64(index))
            let start = Instant(millisecondsSinceEpoch: day.daysSinceEpoch * 86_400_000 + 43_200_000)
            let end = Instant(millisecondsSinceEpoch: start.millisecondsSinceEpoch + 1_800_000)
            let value = 8_000 + Double(index % 17) * 150
            let sample = Sample(
                id: ContentID(
                    metric: "step_count", source: "Bench phone", start: start, end: end,
                    value: String(value), unit: nil),
                metric: "step_count", sourceName: "Bench phone", start: start, end: end, utcOffsetSeconds: 0,
                value: value)
            let batch = DeliveryBatch(batchID: "day-\(index)", samples: [sample], deletions: [])
            _ = try await sink.deliver(batchID: batch.batchID, payload: try sink.encode(batch))
        }
        let clock = ContinuousClock()
        var started = clock.now
        let caughtUp = try await follower.catchUp()
        let catchUpSeconds = (clock.now - started).seconds
        let stored = try store.dailyProjections(metric: "step_count", days: first...first.adding(days: 364)).count
        started = clock.now
        let rebuilt = try await follower.rebuild()
        let rebuildSeconds = (clock.now - started).seconds
        report.catchUp(
            caughtUp, seconds: catchUpSeconds, daysStored: stored, rebuild: rebuilt, rebuildSeconds: rebuildSeconds)
    }
}

/// The commits of a round, from every sender.
final class CommitLog: Sendable {
    private let commits = Mutex<[Commit]>([])

    func add(_ commit: Commit) { commits.withLock { $0.append(commit) } }

    var all: [Commit] { commits.withLock { $0 } }
}

/// One sent batch: its user, the feed sequence it made, when it was sent and answered.
struct Commit: Sendable {
    let user: Int
    let seq: Int64
    let sent: ContinuousClock.Instant
    let answered: ContinuousClock.Instant
}

struct IngestRound: Sendable {
    let samples: Int
    let seconds: Double
    let commits: [Commit]
    var rate: Double { Double(samples) / seconds }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
