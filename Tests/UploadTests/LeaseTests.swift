import CollectorSink
import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLStore
import HealthETLTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Leases: two uploaders on one store never hold the same batch (reliability U5), and a lease
/// whose holder died or whose time ran out is reclaimed.
@Suite struct LeaseTests {
    let collector = UploadCollector()
    let directory = TemporaryDirectory("upload-lease")

    /// U5: two uploaders, each with its own connection to the same store (as two processes
    /// would have), each sending through its own slow front to the same collector, run at
    /// once: every batch is sent by exactly one of them, never twice at the same time, and all
    /// are delivered.
    @Test func twoUploadersOnOneStoreNeverSendABatchTwice() async throws {
        let path = directory.child("store")
        let clock = TestClock()
        try await collector.run { port, sinks in
            let fronts = try (0..<2).map { _ in
                try FaultInjectingServer(
                    script: [], afterScript: .delay(seconds: 0.15, then: .forward(to: port)))
            }
            defer { fronts.forEach { $0.stop() } }
            let samples = Upload.heartRates(240)
            do {
                // Formed first, as `upload` would (encoding needs no network).
                let store = try Upload.store(path, clock: clock)
                try Upload.commit(store, samples)
                var report = UploadReport()
                try Upload.uploader(
                    store, try sinks.make(port: fronts[0].port), clock: clock, batchSamples: 10
                )
                .enqueuePending(into: &report)
                #expect(report.queuedBatches == 24)
            }

            // Each with its own connection to the store, as two processes would have. (Opened one
            // after the other: opening at the same instant can fail, see
            // `twoProcessesOpeningTheStoreAtOnceBothSucceed`.)
            let first = try Upload.store(path, clock: clock)
            let second = try Upload.store(path, clock: clock)
            let firstSink = try sinks.make(port: fronts[0].port)
            let secondSink = try sinks.make(port: fronts[1].port)
            async let firstReport = Self.drain(first, firstSink, clock: clock, owner: 8_001)
            async let secondReport = Self.drain(second, secondSink, clock: clock, owner: 8_002)
            let reports = try await [firstReport, secondReport]
            try await Upload.settle(fronts[0])
            try await Upload.settle(fronts[1])

            #expect(reports.allSatisfy { $0.attempts > 0 && $0.failedAttempts == 0 }, "\(reports)")
            #expect(reports.map(\.attempts).reduce(0, +) == 24)
            #expect(reports.map(\.deliveredBatches).reduce(0, +) == 24)
            let store = try Upload.store(path, clock: clock)
            let batches = Set(try store.uploads(in: [.done], limit: 100).map(\.item.batchID))
            #expect(batches.count == 24)
            #expect(try store.uploadCounts()[.done] == 24)

            let keys = fronts.map { front in
                front.exchanges.compactMap { $0.request.headers["idempotency-key"] }
            }
            #expect(Set(keys[0]).isDisjoint(with: keys[1]), "a batch was sent by both uploaders")
            #expect(Set(keys[0]).union(keys[1]) == batches)
            #expect(keys[0].count + keys[1].count == 24, "a batch was sent more than once")
            // No two requests with the same key were ever held at the same time.
            let all = fronts.flatMap(\.exchanges)
            for (position, first) in all.enumerated() {
                for second in all[(position + 1)...]
                where first.request.headers["idempotency-key"] == second.request.headers["idempotency-key"] {
                    let firstEnd = try #require(first.finished)
                    let secondEnd = try #require(second.finished)
                    #expect(
                        firstEnd <= second.started || secondEnd <= first.started,
                        "the same batch was on the wire twice at once")
                }
            }
            // The two really ran at once: their time on the wire overlaps.
            let spans = fronts.map { front in
                (front.exchanges.map(\.started).min()!, front.exchanges.compactMap(\.finished).max()!)
            }
            #expect(spans[0].0 < spans[1].1 && spans[1].0 < spans[0].1, "the uploaders did not overlap")
            #expect(try collector.sampleCount() == 240)
        }
    }

    static func drain(_ store: sending Store, _ sink: CollectorSink, clock: TestClock, owner: Int32)
        async throws -> UploadReport
    {
        let uploader = Upload.uploader(store, sink, clock: clock, owner: owner, concurrency: 2)
        var report = UploadReport()
        try await uploader.drain(tiers: [.batch], retryUntil: clock.now().adding(seconds: 60), into: &report)
        return report
    }

    /// Two processes opening one store at the same moment (two `healthetl upload` runs started
    /// together) must both get it: `Store.init` sets the busy timeout before `journal_mode = WAL`,
    /// whose lock would otherwise fail at once with "database is locked".
    @Test func twoProcessesOpeningTheStoreAtOnceBothSucceed() throws {
        let path = directory.child("store")
        _ = try Store(directory: StoreDirectory(path: path))
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<100 {
                do {
                    _ = try Store(directory: StoreDirectory(path: path))
                } catch {
                    failures.add()
                }
            }
        }
        let failed = failures.value
        #expect(failed == 0, "\(failed) of 200 opens failed with \"database is locked\"")
    }

    /// A lease leaves no read transaction open on its connection: after another connection
    /// wrote, the next lease (a write) still succeeds instead of failing at once with
    /// SQLITE_BUSY_SNAPSHOT ("the store is locked").
    @Test func aLeaseLeavesNoReadSnapshotBehind() throws {
        let path = directory.child("store")
        let clock = TestClock(running: false)
        let first = try Upload.store(path, clock: clock)
        let second = try Upload.store(path, clock: clock)
        for index in 0..<3 {
            try first.enqueueUpload(
                batchID: "b-\(index)", tier: .batch, payload: [1], samples: 1, deletions: 0)
        }
        #expect(
            try first.leaseNextUpload(owner: 1, leaseSeconds: 60, isAlive: { _ in true })?.item.batchID
                == "b-0")
        #expect(
            try second.leaseNextUpload(owner: 2, leaseSeconds: 60, isAlive: { _ in true })?.item.batchID
                == "b-1")
        #expect(
            try first.leaseNextUpload(owner: 1, leaseSeconds: 60, isAlive: { _ in true })?.item.batchID
                == "b-2")
    }

    /// A batch leased by a process that has exited is reclaimed by the next drain at once (no
    /// wait for the lease to run out), and its reclaim costs no attempt.
    @Test func aBatchLeasedByADeadProcessIsReclaimedAtOnce() async throws {
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let deadPID = exited.processIdentifier
        #expect(!Uploader.processIsAlive(deadPID))
        #expect(Uploader.processIsAlive(getpid()))

        let path = directory.child("store")
        try await collector.run { port, sinks in
            let clock = TestClock(running: false)
            let store = try Upload.store(path, clock: clock)
            try Upload.commit(store, Upload.heartRates(10))
            let sink = try sinks.make(port: port)
            let uploader = Upload.uploader(
                store, sink, clock: clock, owner: getpid(), isAlive: Uploader.processIsAlive)
            var report = UploadReport()
            try uploader.enqueuePending(into: &report)
            // The dead process leased it for five minutes, then died mid-send.
            let leased = try #require(
                try store.leaseNextUpload(owner: deadPID, leaseSeconds: 300, isAlive: { _ in true }))
            let held = try #require(try store.uploads(in: [.inFlight], limit: 10).first)
            #expect(held.item.batchID == leased.item.batchID && held.item.lease?.owner == deadPID)

            try await uploader.drain(tiers: [.batch], into: &report)
            #expect(report.attempts == 1 && report.deliveredBatches == 1)
            let batch = try #require(try store.uploads(in: [.done], limit: 10).first)
            #expect(batch.item.attempts == 1 && batch.item.lease == nil)
            #expect(try collector.sampleCount() == 10)
        }
    }

    /// A live holder's lease is left alone until it expires; then the next drain reclaims it.
    @Test func aLiveHoldersLeaseIsRespectedUntilItExpires() async throws {
        let path = directory.child("store")
        try await collector.run { port, sinks in
            let clock = TestClock(running: false)
            let store = try Upload.store(path, clock: clock)
            try Upload.commit(store, Upload.heartRates(10))
            let sink = try sinks.make(port: port)
            let uploader = Upload.uploader(
                store, sink, clock: clock, owner: 7_002, isAlive: Uploader.processIsAlive)
            var report = UploadReport()
            try uploader.enqueuePending(into: &report)
            // This very process holds it (alive) for 60 s.
            _ = try #require(
                try store.leaseNextUpload(owner: getpid(), leaseSeconds: 60, isAlive: { _ in true }))

            clock.advance(seconds: 59)
            try await uploader.drain(tiers: [.batch], into: &report)
            #expect(report.attempts == 0)
            #expect(try store.uploadCounts()[.inFlight] == 1)
            #expect(try collector.sampleCount() == 0)

            clock.advance(seconds: 1)
            try await uploader.drain(tiers: [.batch], into: &report)
            #expect(report.attempts == 1 && report.deliveredBatches == 1)
            let batch = try #require(try store.uploads(in: [.done], limit: 10).first)
            #expect(batch.item.attempts == 1)
            #expect(try collector.sampleCount() == 10)
        }
    }
}
