import HealthETLCore
import HealthETLStore

/// Keeps the local projections equal to the sink's by following its change feed: catches up
/// page by page through `changes`, follows the live stream, and rebuilds from scratch when it has
/// no cursor for this sink or the feed says its cursor is gone. Each change's scopes are pulled
/// (conditionally, with the ETags kept) and written with the cursor in one transaction.
public final class FeedFollower {
    let store: Store
    let sink: any SampleSink
    /// The sink's identity for the cursor: another endpoint starts from a rebuild.
    let endpoint: String
    let clock: Clock
    /// Changes per page while catching up.
    let pageSize: Int

    public init(store: Store, sink: any SampleSink, endpoint: String, clock: Clock = .system, pageSize: Int = 500) {
        self.store = store
        self.sink = sink
        self.endpoint = endpoint
        self.clock = clock
        self.pageSize = pageSize
    }

    /// Brings the projections up to the feed's head.
    public func catchUp() async throws -> FeedReport {
        var report = FeedReport()
        guard type(of: sink).capabilities.contains(.changeFeed) else {
            report.notFollowed = "the sink keeps no change feed"
            return report
        }
        guard let start = try store.feedCursor(), start.endpoint == endpoint else {
            report.add(try await rebuild())
            return try await catchUp(from: report)
        }
        report.cursor = start.cursor
        return try await catchUp(from: report)
    }

    private func catchUp(from earlier: FeedReport) async throws -> FeedReport {
        var report = earlier
        while true {
            switch try await sink.changes(since: report.cursor, limit: pageSize) {
            case .gone:
                report.add(try await rebuild())
            case .page(let page):
                guard !page.changes.isEmpty else {
                    report.head = page.head
                    return report
                }
                report.add(try await apply(page.changes, head: page.head, eventAt: nil))
                guard page.more else { return report }
            }
        }
    }

    /// Applies changes that arrived together: pulls their scopes, then writes them with the cursor
    /// at the last change. A change of everything rebuilds instead.
    public func apply(_ changes: [FeedChange], head: Int64, eventAt: Instant?) async throws -> FeedReport {
        var report = FeedReport()
        guard let last = changes.last else { return report }
        let keys = changes.flatMap(\.keys)
        if keys.contains(.everything) {
            report = try await rebuild(atLeast: last.seq)
            report.changes = changes.count
            return report
        }
        let scopes = try await narrowed(FeedScopes.covering(keys))
        let pulls = try await pull(scopes, into: &report)
        try store.applyFeed(
            FeedUpdate(
                endpoint: endpoint, cursor: last.seq, head: max(head, last.seq), lastEventAt: eventAt,
                rebuild: false, pulls: pulls))
        report.changes = changes.count
        report.cursor = last.seq
        report.head = max(head, last.seq)
        return report
    }

    /// Replaces every projection with the sink's, and sets the cursor to the head the sink had
    /// before the pulls (changes after it are applied next, pulled twice at worst).
    public func rebuild(atLeast minimum: Int64 = 0) async throws -> FeedReport {
        var report = FeedReport()
        report.rebuilt = true
        let extent = try await sink.projectionExtent()
        let pulls = try await pull(FeedScopes.rebuilding(extent), into: &report)
        let cursor = max(extent.head, minimum)
        try store.applyFeed(
            FeedUpdate(endpoint: endpoint, cursor: cursor, head: cursor, lastEventAt: nil, rebuild: true, pulls: pulls))
        report.cursor = cursor
        report.head = cursor
        return report
    }

    /// The scopes that can hold data: those within the days this store holds of their kind of
    /// projection (a change there may delete), or else within the days the sink's extent has (a
    /// change there may add). A change key can name any years, the data cannot lie outside both;
    /// the extent is asked for only when a scope reaches past what the store holds.
    private func narrowed(_ scopes: [ChangeKey]) async throws -> [ChangeKey] {
        var held: [ChangeKey] = []
        var beyond: [ChangeKey] = []
        for scope in scopes {
            if FeedScopes.reaches(scope, try store.projectionSpan(of: scope)) {
                held.append(scope)
            } else {
                beyond.append(scope)
            }
        }
        guard !beyond.isEmpty else { return scopes }
        let extent = try await sink.projectionExtent()
        let added = Set(beyond.filter { FeedScopes.reaches($0, FeedScopes.span(of: $0, in: extent)) })
        let kept = Set(held).union(added)
        return scopes.filter { kept.contains($0) }
    }

    /// Scopes asked for at once (`OrderedRequests`).
    static let pullsInFlight = 4

    /// The sink's answers for `scopes`, in their order, `pullsInFlight` on the wire at a time.
    private func pull(_ scopes: [ChangeKey], into report: inout FeedReport) async throws
        -> [(scope: ChangeKey, answer: ProjectionAnswer)]
    {
        let etags = try scopes.map { try store.projectionETag($0) }
        let sink = sink
        var pulls: [(scope: ChangeKey, answer: ProjectionAnswer)] = []
        try await OrderedRequests.run(count: scopes.count, inFlight: Self.pullsInFlight) { index in
            try await sink.projection(scopes[index], ifNoneMatch: etags[index])
        } receive: { index, answer in
            report.scopes += 1
            if case .notModified = answer { report.notModified += 1 } else { report.pulled += 1 }
            pulls.append((scopes[index], answer))
        }
        return pulls
    }

    /// Follows the live stream until `stop` is raised: catches up, streams, and after a failure
    /// waits (exponential backoff with full jitter, 0.5 s doubling to 30 s) and starts again from
    /// the cursor. `onUpdate` hears each applied change and each failure.
    public func follow(stop: StopSignal, onUpdate: (FeedFollowUpdate) -> Void) async {
        var failures = 0
        while !stop.isRaised {
            do {
                let caughtUp = try await catchUp()
                onUpdate(.caughtUp(caughtUp))
                var cursor = caughtUp.cursor
                for try await event in Self.stoppable(sink.changeStream(since: cursor), stop: stop) {
                    failures = 0
                    switch event {
                    case .change(let change):
                        // Repeats of what a catch-up applied are skipped.
                        guard change.seq > cursor else { continue }
                        let report = try await apply([change], head: change.seq, eventAt: clock.now())
                        cursor = report.cursor
                        onUpdate(.applied(report))
                    case .resync:
                        let report = try await rebuild()
                        cursor = report.cursor
                        onUpdate(.applied(report))
                    }
                }
            } catch {
                guard !stop.isRaised else { return }
                failures += 1
                let delay = Self.backoff(failures: failures)
                onUpdate(.failed(String(describing: error), retryIn: delay))
                let until = ContinuousClock.now + .milliseconds(Int64(delay * 1000))
                while !stop.isRaised && ContinuousClock.now < until { try? await Task.sleep(for: .milliseconds(100)) }
            }
        }
    }

    /// Seconds to wait after `failures` failures in a row: a random time up to 0.5 s × 2^(n−1),
    /// at most 30 s, so many clients that lost one collector do not all come back at once.
    static func backoff(failures: Int) -> Double {
        let ceiling = min(30, 0.5 * Double(1 << min(failures - 1, 16)))
        return Double.random(in: (ceiling / 2)...ceiling)
    }

    /// The events, ending when `stop` is raised (the stream's connection is then closed).
    private static func stoppable(_ events: AsyncThrowingStream<FeedEvent, any Error>, stop: StopSignal)
        -> AsyncThrowingStream<FeedEvent, any Error>
    {
        AsyncThrowingStream { continuation in
            let forward = Task {
                do {
                    for try await event in events { continuation.yield(event) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            let watch = Task {
                while !stop.isRaised && !Task.isCancelled { try? await Task.sleep(for: .milliseconds(100)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                forward.cancel()
                watch.cancel()
            }
        }
    }
}
