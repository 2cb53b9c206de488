import CollectorSink
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import HealthETLTestSupport
import Testing

/// The uploader over a real store, through a fault-injecting front to the real collector
/// (reliability U1, U2, U4).
@Suite struct DeliveryTests {
    let collector = UploadCollector()
    let directory = TemporaryDirectory("upload-store")

    enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case internalError, unavailableWithRetryAfter, tooManyRequestsWithRetryAfter, timeout,
            resetAfterTheCollectorStoredIt

        var testDescription: String { rawValue }

        /// The failing answer, the wait before the retry it must cause, and the sink's request
        /// timeout. The first retry waits base × 2⁰ × jitter = 0.4 × 0.5 = 0.2 s, or the Retry-After.
        func script(collector port: Int) -> (FaultInjectingServer.Action, Double, Duration) {
            switch self {
            case .internalError:
                (.json(status: 500, #"{"error":"internal","message":"disk on fire"}"#), 0.2, .seconds(10))
            case .unavailableWithRetryAfter:
                (.respond(status: 503, headers: ["Retry-After": "1"]), 1, .seconds(10))
            case .tooManyRequestsWithRetryAfter:
                (.respond(status: 429, headers: ["Retry-After": "1"]), 1, .seconds(10))
            // The collector answers after the client gave up, and stores the batch all the same.
            case .timeout: (.delay(seconds: 3, then: .forward(to: port)), 1.7, .milliseconds(1_500))
            case .resetAfterTheCollectorStoredIt: (.forwardThenReset(to: port), 0.2, .seconds(10))
            }
        }
    }

    /// U1: each failure, then a good answer: one batch, done after two attempts with the same key
    /// and bytes, the wait the policy (or Retry-After) asks for, and one copy on the collector.
    @Test(arguments: Fault.allCases)
    func aFailedAttemptIsRetriedWithTheSameKeyAndBytesAndStoredOnce(_ fault: Fault) async throws {
        let storePath = directory.child("store")
        let samples = Upload.heartRates(40)
        // With a timeout or a reset, the first attempt reached the collector too: the duplicate was absorbed.
        let firstReached = [.timeout, .resetAfterTheCollectorStoredIt].contains(fault)
        // A retry through a loaded machine may time out again: then it takes a third attempt.
        let lenient = fault == .timeout
        try await collector.run { port, sinks in
            let (action, gap, timeout) = fault.script(collector: port)
            let front = try FaultInjectingServer(script: [action], afterScript: .forward(to: port))
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            try Upload.commit(store, samples)
            var report = UploadReport()
            let sink = try sinks.make(port: front.port, requestTimeout: timeout)
            let uploader = Upload.uploader(store, sink, clock: clock)
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(
                tiers: [.batch], retryUntil: clock.now().adding(seconds: 60), into: &report)
            try await Upload.settle(front)
            front.stop()

            #expect(report.queuedBatches == 1)
            let attemptsAsExpected = lenient ? report.attempts >= 2 : report.attempts == 2
            #expect(attemptsAsExpected, "\(report.attempts) attempts")
            #expect(report.failedAttempts == report.attempts - 1 && report.deliveredBatches == 1)
            #expect(report.deadBatches == 0 && report.waitingBatches == 0 && report.acceptedItems == 40)
            let done = try store.uploads(in: Set(QueueState.allCases), limit: 10)
            #expect(done.count == 1)
            let batch = try #require(done.first)
            #expect(
                batch.item.state == .done && batch.item.attempts == report.attempts && batch.accepted == 40
                    && batch.rejected == 0)

            let exchanges = front.exchanges
            #expect(exchanges.count == report.attempts)
            #expect(exchanges.allSatisfy { $0.request.headers["idempotency-key"] == batch.item.batchID })
            #expect(
                exchanges.allSatisfy {
                    !$0.request.body.isEmpty && $0.request.body == exchanges[0].request.body
                })
            let waited = exchanges.count >= 2 ? (exchanges[1].started - exchanges[0].started).seconds : 0
            // Not earlier than the backoff or Retry-After asks (later is possible on a loaded machine).
            #expect(waited >= gap - 0.05, "retried after \(waited) s, expected at least \(gap) s")
            #expect((exchanges.first?.forwardedStatus == 200) == firstReached)
            #expect(exchanges.last?.forwardedStatus == 200)
            let rows = try collector.sampleRows()
            #expect(Set(rows.keys) == Upload.hex(samples))
            #expect(rows.values.allSatisfy { $0 == 1 })
            #expect(try collector.sampleCount() == 40)
        }
    }

    /// U2: a batch the collector refuses (422) is dead after one attempt while the others are
    /// delivered; `retry` brings it back and it is delivered; `purge` forgets a dead one.
    @Test func aRefusedBatchGoesDeadAtOnceWhileTheOthersFlow() async throws {
        let storePath = directory.child("store")
        try await collector.run { port, sinks in
            let front = try FaultInjectingServer(
                script: [.json(status: 422, #"{"error":"invalid_batch","message":"refused by the test"}"#)],
                afterScript: .forward(to: port))
            defer { front.stop() }
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            try Upload.commit(store, Upload.heartRates(6))
            let sink = try sinks.make(port: front.port)
            let uploader = Upload.uploader(store, sink, clock: clock, batchSamples: 2)
            var report = UploadReport()
            try uploader.enqueuePending(into: &report)
            #expect(report.queuedBatches == 3)
            try await uploader.drain(
                tiers: [.batch], retryUntil: clock.now().adding(seconds: 60), into: &report)
            #expect(report.attempts == 3 && report.deliveredBatches == 2 && report.deadBatches == 1)
            #expect(report.waitingBatches == 0)
            let dead = try #require(try store.uploads(in: [.dead], limit: 10).first)
            #expect(dead.item.attempts == 1)
            #expect(dead.item.lastError?.contains("HTTP 422 (invalid_batch: refused by the test)") == true)
            #expect(front.requests.first?.headers["idempotency-key"] == dead.item.batchID)
            #expect(try store.uploadCounts()[.done] == 2)
            #expect(try collector.sampleCount() == 4)

            // `healthetl queue retry ID`: back to pending, attempts reset, then delivered.
            #expect(try store.retryUploads(batchID: dead.item.batchID) == 1)
            let back = try store.uploads(in: [.pending], limit: 10)
            #expect(back.map(\.item.batchID) == [dead.item.batchID] && back.first?.item.attempts == 0)
            var again = UploadReport()
            try await uploader.drain(tiers: [.batch], into: &again)
            #expect(again.deliveredBatches == 1 && again.deadBatches == 0)
            #expect(try collector.sampleCount() == 6)
            let sends = front.requests.filter { $0.headers["idempotency-key"] == dead.item.batchID }
            #expect(sends.count == 2 && sends[0].body == sends[1].body)

            // A 400 for the next batch: dead, then purged; its samples stay in the store.
            try Upload.commit(store, Upload.heartRates(2, first: 100))
            front.append([.json(status: 400, #"{"error":"invalid_batch","message":"bad"}"#)])
            var third = UploadReport()
            try uploader.enqueuePending(into: &third)
            try await uploader.drain(tiers: [.batch], into: &third)
            #expect(third.attempts == 1 && third.deadBatches == 1)
            #expect(try store.purgeDeadUploads() == 1)
            let counts = try store.uploadCounts()
            #expect(counts[.dead] == 0 && counts[.done] == 3 && counts[.pending] == 0 && counts[.failed] == 0)
            #expect(try store.uploads(in: Set(QueueState.allCases), limit: 10).count == 3)
            #expect(try store.status().samples.total == 8)
            #expect(try store.retryUploads(batchID: nil) == 0)
            #expect(try collector.sampleCount() == 6)
        }
    }

    /// U2: a batch that fails retryably every time is dead after the policy's attempts, and not
    /// tried again.
    @Test func aBatchThatKeepsFailingIsDeadAfterTheMaximumAttempts() async throws {
        let storePath = directory.child("store")
        try await collector.run { port, sinks in
            let front = try FaultInjectingServer(
                script: [.respond(status: 500), .respond(status: 502), .respond(status: 503)],
                afterScript: .forward(to: port))
            defer { front.stop() }
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            try Upload.commit(store, Upload.heartRates(3))
            let policy = RetryPolicy(maximumAttempts: 3, baseSeconds: 0.4, capSeconds: 2)
            var report = UploadReport()
            let started = ContinuousClock.now
            let sink = try sinks.make(port: front.port)
            let uploader = Upload.uploader(store, sink, clock: clock, policy: policy)
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(
                tiers: [.batch], retryUntil: clock.now().adding(seconds: 60), into: &report)
            // Waits of 0.2 s and 0.4 s, then dead: nothing to wait for (generous: machines get loaded).
            #expect((ContinuousClock.now - started).seconds < 30)
            #expect(report.failedAttempts == report.attempts && report.deliveredBatches == 0)
            #expect(report.attempts == 3 && report.deadBatches == 1)
            let dead = try #require(try store.uploads(in: [.dead], limit: 10).first)
            #expect(dead.item.attempts == 3)
            #expect(dead.item.lastError?.hasPrefix("gave up after 3 attempts: ") == true)
            #expect(front.requests.count == 3)
            #expect(try collector.sampleCount() == 0)
        }
    }

    /// The queue's next attempt time is the same however often it is asked.
    @Test func theNextAttemptTimeIsTheSameOnEveryCall() throws {
        let clock = TestClock(running: false)
        let store = try Upload.store(directory.child("store"), clock: clock)
        try store.enqueueUpload(batchID: "b-1", tier: .batch, payload: [1], samples: 1, deletions: 0)
        let answers = try (0..<4).map { _ in try store.nextUploadAttempt() }
        #expect(answers.first == clock.now())
        #expect(answers.allSatisfy { $0 == clock.now() }, "\(answers)")
    }

    /// U4: a 200 that refuses some items: the batch is done, the refused items are recorded with
    /// the collector's reasons and are not counted as accepted, and the collector holds the rest.
    @Test func itemsTheCollectorRefusesAreRecordedAndNotCountedAsAccepted() async throws {
        let storePath = directory.child("store")
        let good = Upload.heartRates(3)
        // Beyond the catalog's hard limit (the store takes what it is given; the collector checks).
        let negative = RecordFixtures.sample(index: 10, value: -5)
        // Deleted at the collector by another client: a deleted id stays deleted there.
        let deletedThere = RecordFixtures.sample(index: 11, value: 61)
        try await collector.run { port, sinks in
            let clock = TestClock()
            let store = try Upload.store(storePath, clock: clock)
            let sink = try sinks.make(port: port)
            let deletion = DeliveryBatch(
                batchID: "another-client-deletes", samples: [],
                deletions: [Tombstone(of: deletedThere, reason: "deleted_at_source", deletedAt: clock.now())])
            _ = try await sink.deliver(batchID: deletion.batchID, payload: try sink.encode(deletion))

            try Upload.commit(store, good + [negative, deletedThere])
            var report = UploadReport()
            let uploader = Upload.uploader(store, sink, clock: clock)
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)
            #expect(report.deliveredBatches == 1 && report.acceptedItems == 3 && report.rejectedItems == 2)
            let batch = try #require(try store.uploads(in: [.done], limit: 10).first)
            #expect(batch.samples == 5 && batch.accepted == 3 && batch.rejected == 2)
            let queue = try store.status().queue
            #expect(queue.done == 1 && queue.rejectedItems == 2)
            #expect(
                try Upload.rejections(store) == [
                    negative.id.description.lowercased(): "value_below_hard_limit",
                    deletedThere.id.description.lowercased(): "deleted",
                ])
            #expect(Set(try collector.sampleRows().keys) == Upload.hex(good))
        }
    }
}

/// A run without a deadline tries each ready batch once: a batch that failed waits for the next
/// run even when its jittered next attempt comes within milliseconds (full jitter can draw ~0).
@Suite struct OneTryPerRunTests {
    let directory = TemporaryDirectory("upload-one-try")

    @Test func aFailedBatchIsNotTriedAgainInTheSameRun() async throws {
        let front = try FaultInjectingServer(script: [], afterScript: .respond(status: 500))
        defer { front.stop() }
        let clock = TestClock()
        let store = try Upload.store(directory.child("store"), clock: clock)
        try Upload.commit(store, Upload.heartRates(6))
        // Next attempts 5 ms after each failure: ready again long before the run ends.
        let policy = RetryPolicy(maximumAttempts: 5, baseSeconds: 0.01, capSeconds: 0.01)
        let sinks = Sinks()
        var report = UploadReport()
        do {
            let uploader = Upload.uploader(
                store, try sinks.make(port: front.port), clock: clock, batchSamples: 3, policy: policy)
            try uploader.enqueuePending(into: &report)
            try await uploader.drain(tiers: [.batch], into: &report)
        } catch {
            await sinks.shutdown()
            throw error
        }
        await sinks.shutdown()
        #expect(report.attempts == 2 && report.failedAttempts == 2 && report.deadBatches == 0)
        #expect(front.requests.count == 2)
        let failed = try store.uploads(in: [.failed], limit: 10)
        #expect(failed.count == 2 && failed.allSatisfy { $0.item.attempts == 1 })
    }
}
