/// One batch in the retry queue, and every move it can make. A value type: the store reads a
/// row, applies one transition and writes it back in the same transaction.
public struct QueueItem: Sendable, Equatable {
    public var batchID: String
    public var tier: UploadTier
    public var state: QueueState
    /// Attempts made so far.
    public var attempts: Int
    /// Not to be sent before this (pending items: their creation time).
    public var nextAttempt: Instant
    public var lease: QueueLease?
    /// Why the last attempt failed (no sample values: a status and the server's error code).
    public var lastError: String?

    public init(
        batchID: String, tier: UploadTier, state: QueueState = .pending, attempts: Int = 0, nextAttempt: Instant,
        lease: QueueLease? = nil, lastError: String? = nil
    ) {
        self.batchID = batchID
        self.tier = tier
        self.state = state
        self.attempts = attempts
        self.nextAttempt = nextAttempt
        self.lease = lease
        self.lastError = lastError
    }

    public enum TransitionError: Error, Equatable {
        case notReady(QueueState)
        case notLeased
    }

    /// Ready to be leased at `now`: pending, or failed and its wait is over.
    public func isReady(at now: Instant) -> Bool {
        (state == .pending || state == .failed) && nextAttempt <= now
    }

    /// pending/failed → in_flight, held by `owner` until `now + seconds`.
    public mutating func lease(owner: Int32, now: Instant, seconds: Int64) throws(TransitionError) {
        guard isReady(at: now) else { throw .notReady(state) }
        state = .inFlight
        lease = QueueLease(owner: owner, until: now.adding(seconds: seconds))
    }

    /// in_flight → done.
    public mutating func succeed() throws(TransitionError) {
        guard state == .inFlight else { throw .notLeased }
        state = .done
        lease = nil
        lastError = nil
        attempts += 1
    }

    /// in_flight → failed (retry later), or dead when the error is permanent or attempts ran out.
    /// Refused credentials leave it failed and ready at once, the attempt not counted: the batch
    /// was not judged, and it must get through as soon as the token is fixed.
    public mutating func fail(
        _ error: DeliveryError, now: Instant, policy: RetryPolicy, random: Double
    ) throws(TransitionError) {
        guard state == .inFlight else { throw .notLeased }
        lease = nil
        switch error {
        case .unauthorized(let reason):
            state = .failed
            lastError = reason
            nextAttempt = now
        case .permanent(let reason):
            attempts += 1
            state = .dead
            lastError = reason
        case .retryable(let reason, let notBefore):
            attempts += 1
            lastError = reason
            if attempts >= policy.maximumAttempts {
                state = .dead
                lastError = "gave up after \(attempts) attempts: \(reason)"
            } else {
                state = .failed
                let delay = policy.delaySeconds(afterAttempt: attempts, random: random, notBefore: notBefore)
                nextAttempt = Instant(
                    millisecondsSinceEpoch: now.millisecondsSinceEpoch + Int64((delay * 1000).rounded(.up)))
            }
        }
    }

    /// in_flight whose lease expired or whose holder is gone → pending. No attempt is counted:
    /// the send may never have happened, and if it did, the batch id makes a resend harmless.
    /// - Returns: whether the item was reclaimed.
    @discardableResult
    public mutating func reclaim(now: Instant, isAlive: (Int32) -> Bool) -> Bool {
        guard state == .inFlight, let lease else { return false }
        guard lease.until <= now || !isAlive(lease.owner) else { return false }
        state = .pending
        self.lease = nil
        nextAttempt = now
        return true
    }

    /// dead or failed → pending, attempts reset: `healthetl queue retry`.
    public mutating func retry(now: Instant) throws(TransitionError) {
        guard state == .dead || state == .failed else { throw .notReady(state) }
        state = .pending
        attempts = 0
        nextAttempt = now
        lastError = nil
    }
}
