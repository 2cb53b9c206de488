import Crypto
import HealthETLCore
import HealthETLStore

#if canImport(Glibc)
    import Glibc
#endif

/// Ships the store to a sink through the one retry queue: forms batches (a bounded number at a
/// time, so memory stays flat however large the store), stores each encoded batch under its
/// content-derived id before the first send, then leases, sends and records outcomes.
///
/// Clock, randomness and process liveness are injected, so the tests are exact. Confined to the
/// task that owns it (the store's connection is not shared).
public final class Uploader {
    let store: any UploadQueueLedger & UndeliveredChanges
    let sink: any SampleSink
    let limits: UploadLimits
    let policy: RetryPolicy
    let clock: Clock
    let randomness: Randomness
    let owner: Int32
    let isAlive: (Int32) -> Bool
    /// Longer than any one request may take: a lease that expires was abandoned.
    let leaseSeconds: Int64
    /// Batches on the wire at once.
    let concurrency: Int

    public init(
        store: any UploadQueueLedger & UndeliveredChanges, sink: any SampleSink, limits: UploadLimits = UploadLimits(),
        policy: RetryPolicy = RetryPolicy(),
        clock: Clock = .system, randomness: Randomness = .system,
        owner: Int32 = getpid(), isAlive: @escaping (Int32) -> Bool = Uploader.processIsAlive,
        leaseSeconds: Int64 = 300,
        concurrency: Int = 4
    ) {
        self.store = store
        self.sink = sink
        var limits = limits
        if let largest = type(of: sink).maximumBatchBytes { limits.bytes = min(limits.bytes, largest) }
        self.limits = limits
        self.policy = policy
        self.clock = clock
        self.randomness = randomness
        self.owner = owner
        self.isAlive = isAlive
        self.leaseSeconds = leaseSeconds
        self.concurrency = max(1, concurrency)
    }

    /// Whether a process with this id exists (a lease held by a dead process is reclaimed).
    public static func processIsAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    // MARK: forming batches

    /// Queues everything committed since the last batch-tier run: samples by commit sequence, then
    /// tombstones by sequence, moving the marks with each batch.
    public func enqueuePending(into report: inout UploadReport) throws {
        while try formNextPending(into: &report) {}
    }

    /// Forms and queues the next batch of what the batch tier has not queued yet.
    /// - Returns: false when everything is queued.
    func formNextPending(into report: inout UploadReport) throws -> Bool {
        let sampleMark = try store.uploadMark(.sampleSequence)
        let rows = try store.samples(
            afterSequence: sampleMark, limit: limits.samples, committedSince: nil, leavingOutRealTime: true)
        if let last = rows.last?.sequence {
            try enqueue(
                samples: rows.map(\.sample), deletions: [], tier: .batch, salt: "", marks: [.sampleSequence: last],
                into: &report)
            return true
        }
        let tombstoneMark = try store.uploadMark(.tombstoneSequence)
        let tombstones = try store.tombstones(afterSequence: tombstoneMark, limit: limits.samples)
        guard let last = tombstones.last?.sequence else { return false }
        try enqueue(
            samples: [], deletions: tombstones.map(\.tombstone), tier: .batch, salt: "",
            marks: [.tombstoneSequence: last],
            into: &report)
        return true
    }

    /// Tier 1: the hot lane's tier-1 metrics committed after the commit sequence number
    /// `sequence`, sent at once with three quick tries (now, 1 s later, 3 s after that); a batch
    /// still failing is left to the queue at tier 1.
    /// - Returns: the last sequence number covered, the mark for the next call.
    public func sendRealTime(afterSequence sequence: Int64, metrics: Set<String>, into report: inout UploadReport)
        async throws -> Int64
    {
        var mark = sequence
        while true {
            let rows = try store.hotSamples(afterSequence: mark, metrics: metrics, limit: limits.samples)
            guard let last = rows.last?.sequence else { break }
            try enqueue(
                samples: rows.map(\.sample), deletions: [], tier: .realTime, salt: "", marks: [:], into: &report)
            mark = last
        }
        // Each batch gets its quick tries once; one that still fails waits in the queue, even when
        // its jittered next attempt comes at once.
        var tried: Set<String> = []
        while let (item, payload) = try store.leaseNextUpload(
            owner: owner, leaseSeconds: leaseSeconds, tiers: [.realTime], skipping: tried, isAlive: isAlive)
        {
            tried.insert(item.batchID)
            var result: Result<DeliveryReceipt, DeliveryError> = .failure(
                .retryable(reason: "not sent", notBeforeSeconds: nil))
            for (attempt, pause) in Self.quickRetryPauses.enumerated() {
                if pause > 0 { try await Task.sleep(for: .seconds(pause)) }
                // Every quick try that failed counts; the last one is counted when it is recorded.
                if attempt > 0 { report.failedAttempts += 1 }
                report.attempts += 1
                do throws(DeliveryError) {
                    result = .success(try await sink.deliver(batchID: item.batchID, payload: payload))
                } catch {
                    result = .failure(error)
                }
                if case .failure(.retryable) = result { continue }
                break
            }
            if let refused = try record(item, result, into: &report) { throw refused }
        }
        return mark
    }

    /// Tier 1's pauses before each try.
    static let quickRetryPauses: [Int64] = [0, 1, 3]

    /// Queues again every sample committed since `since`, and every tombstone, as catch-up
    /// batches. Their ids differ from the first sends' (the run's time is part of the content),
    /// so the collector stores them again, and de-duplicates by sample id.
    public func enqueueWindow(since: Instant, into report: inout UploadReport) throws {
        let salt = "catch-up \(clock.now().millisecondsSinceEpoch)"
        var mark: Int64 = 0
        while true {
            let rows = try store.samples(
                afterSequence: mark, limit: limits.samples, committedSince: since, leavingOutRealTime: false)
            guard let last = rows.last?.sequence else { break }
            try enqueue(
                samples: rows.map(\.sample), deletions: [], tier: .catchUp, salt: salt, marks: [:], into: &report)
            mark = last
        }
        var sequence: Int64 = 0
        while true {
            let rows = try store.tombstones(afterSequence: sequence, limit: limits.samples)
            guard let last = rows.last?.sequence else { break }
            try enqueue(
                samples: [], deletions: rows.map(\.tombstone), tier: .catchUp, salt: salt, marks: [:], into: &report)
            sequence = last
        }
    }

    /// Encodes and queues one batch, halving it while its body, measured as the sink's far end
    /// measures it, is over the byte budget.
    private func enqueue(
        samples: [Sample], deletions: [Tombstone], tier: UploadTier, salt: String, marks: [Store.UploadMark: Int64],
        into report: inout UploadReport
    ) throws {
        let batchID = Self.batchID(samples: samples, deletions: deletions, salt: salt)
        let payload = try sink.encode(DeliveryBatch(batchID: batchID, samples: samples, deletions: deletions))
        if sink.decodedSize(of: payload) > limits.bytes, samples.count + deletions.count > 1 {
            // Marks move only with the second half, which ends where the whole batch ends.
            let (firstSamples, secondSamples) = (
                Array(samples.prefix(samples.count / 2)), Array(samples.dropFirst(samples.count / 2))
            )
            let (firstDeletions, secondDeletions) = (
                Array(deletions.prefix(deletions.count / 2)), Array(deletions.dropFirst(deletions.count / 2))
            )
            try enqueue(
                samples: firstSamples, deletions: firstDeletions, tier: tier, salt: salt, marks: [:], into: &report)
            try enqueue(
                samples: secondSamples, deletions: secondDeletions, tier: tier, salt: salt, marks: marks, into: &report)
            return
        }
        try store.enqueueUpload(
            batchID: batchID, tier: tier, payload: payload, samples: samples.count, deletions: deletions.count,
            marks: marks,
            realTimeSamples: tier == .realTime ? samples.map(\.id) : [])
        report.queuedBatches += 1
        report.queuedSamples += samples.count
        report.queuedDeletions += deletions.count
    }

    /// `b1-` and the first 128 bits of SHA-256 over the tier salt and every item's id, in order.
    static func batchID(samples: [Sample], deletions: [Tombstone], salt: String) -> String {
        var hasher = SHA256()
        hasher.update(data: Array(salt.utf8))
        for sample in samples { hasher.update(data: sample.id.bytes) }
        hasher.update(data: [0xFF])
        for tombstone in deletions { hasher.update(data: tombstone.sampleID.bytes) }
        return "b1-" + ContentID(digest: Array(hasher.finalize())).description
    }

    // MARK: sending

    /// Sends every ready batch of `tiers`, lowest tier first, `concurrency` at a time. With
    /// `formingPending`, forms the batch tier's next batches while others are on the wire. With
    /// `retryUntil`, waits for failed batches' next attempts and tries again until that instant;
    /// without, each ready batch is tried once and the rest waits for the next run.
    /// - Throws: `CredentialsRefused` once the batches on the wire are back, when the sink
    ///   refused the credentials (no further batch is sent).
    public func drain(
        tiers: Set<UploadTier>, formingPending: Bool = false, retryUntil: Instant? = nil,
        into report: inout UploadReport
    ) async throws {
        let sink = sink
        try await withThrowingTaskGroup(of: (QueueItem, Result<DeliveryReceipt, DeliveryError>).self) { group in
            var outstanding = 0
            var forming = formingPending
            var refused: CredentialsRefused?
            // Without a deadline to retry until, a batch that failed in this run waits for the
            // next run even when its jittered next attempt (maybe a few milliseconds) comes first.
            var tried: Set<String> = []
            while true {
                while outstanding < concurrency, refused == nil {
                    if let (item, payload) = try store.leaseNextUpload(
                        owner: owner, leaseSeconds: leaseSeconds, tiers: tiers,
                        skipping: retryUntil == nil ? tried : [], isAlive: isAlive)
                    {
                        tried.insert(item.batchID)
                        report.attempts += 1
                        outstanding += 1
                        group.addTask {
                            do throws(DeliveryError) {
                                return (item, .success(try await sink.deliver(batchID: item.batchID, payload: payload)))
                            } catch {
                                return (item, .failure(error))
                            }
                        }
                    } else if forming {
                        forming = try formNextPending(into: &report)
                    } else {
                        break
                    }
                }
                if outstanding == 0 {
                    if let refused { throw refused }
                    // Nothing on the wire and nothing leasable: wait for the next attempt of these
                    // tiers if it comes before the deadline, else stop.
                    guard let retryUntil, clock.now() < retryUntil,
                        let next = try store.nextUploadAttempt(tiers: tiers), next <= retryUntil
                    else { break }
                    let wait = max(0, clock.now().seconds(until: next))
                    try await Task.sleep(for: .milliseconds(Int64(wait * 1000) + 1))
                    continue
                }
                guard let (item, result) = try await group.next() else { break }
                outstanding -= 1
                if let stop = try record(item, result, into: &report) { refused = refused ?? stop }
            }
        }
        report.waitingBatches = try store.uploadCounts().filter { $0.key == .pending || $0.key == .failed }.values
            .reduce(0, +)
    }

    /// Writes what the sink said of a batch this uploader leased. A batch reclaimed from it in
    /// the meantime is left to its new holder.
    /// - Returns: why the run must stop, when the sink refused the credentials.
    private func record(
        _ leased: QueueItem, _ result: Result<DeliveryReceipt, DeliveryError>, into report: inout UploadReport
    ) throws -> CredentialsRefused? {
        var item = leased
        switch result {
        case .success(let receipt):
            try item.succeed()
            guard
                try store.recordUpload(
                    item, heldBy: owner, accepted: receipt.accepted, rejections: receipt.rejected)
            else { return nil }
            report.deliveredBatches += 1
            report.acceptedItems += receipt.accepted
            report.rejectedItems += receipt.rejected.count
        case .failure(let error):
            try item.fail(error, now: clock.now(), policy: policy, random: randomness.unitInterval())
            guard try store.recordUpload(item, heldBy: owner, accepted: nil, rejections: []) else { return nil }
            report.failedAttempts += 1
            if item.state == .dead { report.deadBatches += 1 }
            if case .unauthorized(let reason) = error { return CredentialsRefused(reason: reason) }
        }
        return nil
    }
}
