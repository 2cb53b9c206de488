import HealthETLCore

/// The checks every sink must pass, through a bench that scripts its far end: delivery and
/// idempotent redelivery, faults classified the way the retry queue needs (retryable with a
/// wait, or permanent), slow replies given up on, per-item refusals by id, and every capability
/// it declares honoured. Each check returns the problems it found, in words; none means the
/// sink conforms.
public enum SinkConformance {
    static let day = CivilDate(text: "2026-01-05")!

    static func steps(_ minutes: [Int]) -> [Sample] {
        minutes.map { minute in
            let start = Instant(secondsSinceEpoch: 1_767_607_200 + Int64(minute) * 60)  // 2026-01-05T10:00Z
            let end = start.adding(seconds: 300)
            return Sample(
                id: ContentID(
                    metric: "step_count", source: "Apple Watch", start: start, end: end, value: "\(minute)",
                    unit: "count"),
                metric: "step_count", sourceName: "Apple Watch", start: start, end: end, utcOffsetSeconds: 0,
                value: Double(100 + minute))
        }
    }

    /// A sample no catalog knows: a sink refuses it per item and takes the rest of its batch.
    static var unknown: Sample {
        let start = Instant(secondsSinceEpoch: 1_767_607_200)
        return Sample(
            id: ContentID(
                metric: "no_such_metric", source: "Apple Watch", start: start, end: start, value: "1", unit: nil),
            metric: "no_such_metric", sourceName: "Apple Watch", start: start, end: start, utcOffsetSeconds: 0, value: 1
        )
    }

    public static func problems(of bench: some SinkTestBench) async throws -> [String] {
        var problems: [String] = []
        let sink = try await bench.sink(meeting: [
            .unavailable, .throttled(retryAfterSeconds: 2), .slowerThanTheTimeout, .refused,
        ])
        let kind = type(of: sink)
        do {
            problems += try await faultProblems(sink, bench: bench)
            problems += try await deliveryProblems(sink, bench: bench)
            if kind.capabilities.contains(.deletions) { problems += try await deletionProblems(sink, bench: bench) }
            if kind.capabilities.contains(.projections) { problems += try await projectionProblems(sink) }
            if kind.capabilities.contains(.sourcePriority) { problems += await sourcePriorityProblems(sink) }
            if kind.capabilities.contains(.changeFeed) { problems += try await changeFeedProblems(sink) }
        } catch {
            try? await sink.shutdown()
            throw error
        }
        try await sink.shutdown()
        return problems
    }

    /// The scripted faults, in order, each classified as the queue needs; nothing is stored.
    private static func faultProblems(_ sink: any SampleSink, bench: some SinkTestBench) async throws -> [String] {
        let batch = DeliveryBatch(batchID: "conformance-faults", samples: steps([0]), deletions: [])
        let payload = try sink.encode(batch)
        var problems: [String] = []
        for fault in [SinkFault.unavailable, .throttled(retryAfterSeconds: 2), .slowerThanTheTimeout, .refused] {
            do {
                _ = try await sink.deliver(batchID: batch.batchID, payload: payload)
                problems.append("\(fault): the delivery succeeded")
            } catch .retryable(_, let notBefore) {
                if fault == .refused { problems.append("\(fault): classified retryable, not permanent") }
                if case .throttled(let seconds) = fault, notBefore.map({ abs($0 - Double(seconds)) > 1 }) ?? true {
                    problems.append(
                        "\(fault): the wait asked for was not kept (\(notBefore.map { "\($0)" } ?? "none"))")
                }
            } catch .permanent {
                if fault != .refused { problems.append("\(fault): classified permanent, not retryable") }
            } catch .unauthorized {
                problems.append("\(fault): classified as refused credentials")
            }
        }
        // The slow reply lands after the sink gave up; nothing else was stored.
        try await bench.settle()
        if try await bench.storedSampleIDs() != Set(batch.samples.map(\.id)) {
            problems.append("faults: the far end holds something other than the slow reply's batch")
        }
        return problems
    }

    /// A batch is stored, a per-item refusal comes back by id, and the same bytes again give the
    /// same receipt and store nothing twice.
    private static func deliveryProblems(_ sink: any SampleSink, bench: some SinkTestBench) async throws -> [String] {
        var problems: [String] = []
        let samples = steps([10, 20, 30]) + [unknown]
        let batch = DeliveryBatch(batchID: "conformance-delivery", samples: samples, deletions: [])
        let payload = try sink.encode(batch)
        let first = try await deliverRetrying(sink, batch.batchID, payload)
        if first.accepted != 3 { problems.append("delivery: \(first.accepted) items accepted of 3 valid ones") }
        if first.rejected.map(\.id) != [unknown.id] || first.rejected.contains(where: \.reason.isEmpty) {
            problems.append("delivery: the refused item was not named by id with a reason: \(first.rejected)")
        }
        let again = try await deliverRetrying(sink, batch.batchID, payload)
        if again.accepted != first.accepted || again.rejected != first.rejected {
            problems.append("redelivery: another receipt for the same batch")
        }
        let stored = try await bench.storedSampleIDs()
        if !Set(steps([10, 20, 30]).map(\.id)).isSubset(of: stored) {
            problems.append("delivery: samples missing at the far end")
        }
        if stored.contains(unknown.id) { problems.append("delivery: the refused item was stored") }
        return problems
    }

    /// Delivers as the retry queue does: a retryable failure (a far end slow under a loaded test
    /// run answers after the sink's short timeout) is tried again, and the far end's idempotency
    /// gives the first receipt back. A permanent failure is not retried.
    private static func deliverRetrying(_ sink: any SampleSink, _ batchID: String, _ payload: [UInt8]) async throws
        -> DeliveryReceipt
    {
        for attempt in 1... {
            do {
                return try await sink.deliver(batchID: batchID, payload: payload)
            } catch {
                guard case .retryable = error, attempt < 5 else { throw error }
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        preconditionFailure("unreachable: the loop returns or throws")
    }

    /// `.deletions`: a delivered deletion removes the sample.
    private static func deletionProblems(_ sink: any SampleSink, bench: some SinkTestBench) async throws -> [String] {
        let doomed = steps([40])[0]
        let add = DeliveryBatch(batchID: "conformance-add", samples: [doomed], deletions: [])
        _ = try await deliverRetrying(sink, add.batchID, try sink.encode(add))
        let delete = DeliveryBatch(
            batchID: "conformance-delete", samples: [],
            deletions: [Tombstone(of: doomed, reason: "deleted_at_source", deletedAt: doomed.end)])
        _ = try await deliverRetrying(sink, delete.batchID, try sink.encode(delete))
        return try await bench.storedSampleIDs().contains(doomed.id)
            ? ["deletions: a deleted sample is still stored"] : []
    }

    /// `.sourcePriority`: a priority is taken, and one naming a source twice is refused for good.
    private static func sourcePriorityProblems(_ sink: any SampleSink) async -> [String] {
        var problems: [String] = []
        do {
            try await sink.setSourcePriority(["Apple Watch"])
        } catch {
            problems.append("source priority: a valid priority was refused: \(error)")
        }
        do throws(DeliveryError) {
            try await sink.setSourcePriority(["Apple Watch", "Apple Watch"])
            problems.append("source priority: a priority naming a source twice was taken")
        } catch {
            if case .retryable = error { problems.append("source priority: a malformed priority was called retryable") }
        }
        return problems
    }

    /// `.projections`: the day's rollup adds up what was delivered (and not deleted).
    private static func projectionProblems(_ sink: any SampleSink) async throws -> [String] {
        let days = try await sink.dailyRollups(metric: "step_count", from: day, to: day)
        let expected = steps([0, 10, 20, 30]).compactMap(\.value).reduce(0, +)
        guard days.count == 1, days[0].day == day, days[0].sum == expected, days[0].computedAt != nil else {
            return ["projections: the day's rollup is \(days.map { "\($0.day) \($0.sum ?? -1)" }), not \(expected)"]
        }
        return []
    }

    /// `.changeFeed`: the deliveries are in the feed, a cursor ahead of it is gone, a projection comes with an ETag that answers 304 while nothing changed, and the extent
    /// covers the day delivered.
    private static func changeFeedProblems(_ sink: any SampleSink) async throws -> [String] {
        guard case .page(let page) = try await sink.changes(since: 0, limit: 1000), let last = page.changes.last,
            page.head == last.seq, !page.more
        else { return ["change feed: the deliveries are not in the feed"] }
        let touched = page.changes.flatMap(\.keys).contains { key in
            if case .daily("step_count", let days) = key { return days.contains(day) }
            return false
        }
        var problems = touched ? [] : ["change feed: no change names the steps' day"]
        if case .page(let after) = try await sink.changes(since: last.seq, limit: 10), after.changes.isEmpty {
        } else {
            problems.append("change feed: changes after the head")
        }
        if case .gone = try await sink.changes(since: last.seq + 1_000, limit: 10) {
        } else {
            problems.append("change feed: a cursor ahead of the head is not gone")
        }
        let scope = ChangeKey.daily(metric: "step_count", days: day...day)
        guard case .fresh(.daily(let rollups), let etag?) = try await sink.projection(scope, ifNoneMatch: nil),
            rollups.count == 1
        else { return problems + ["change feed: a projection pull has no rows or no ETag"] }
        if try await sink.projection(scope, ifNoneMatch: etag) != .notModified {
            problems.append("change feed: the ETag of an unchanged projection does not answer 304")
        }
        if try await sink.projectionExtent().days["step_count"]?.contains(day) != true {
            problems.append("change feed: the extent does not cover the steps' day")
        }
        // The live stream is not checked here: a bench's fault-injecting front answers whole
        // responses, and a stream never ends. ChangeFeedAPITests and FollowCommandTests drive it.
        return problems
    }
}
