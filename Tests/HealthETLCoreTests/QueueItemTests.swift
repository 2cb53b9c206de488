import HealthETLCore
import Testing

/// The retry queue's state machine, with the clock and randomness fixed.
@Suite struct QueueItemTests {
    let t0 = Instant(secondsSinceEpoch: 1_000_000)
    let policy = RetryPolicy(maximumAttempts: 4, baseSeconds: 2, capSeconds: 60)

    func leased(
        _ item: QueueItem = QueueItem(batchID: "b", tier: .batch, nextAttempt: Instant(secondsSinceEpoch: 1_000_000))
    )
        throws -> QueueItem
    {
        var item = item
        try item.lease(owner: 42, now: t0, seconds: 300)
        return item
    }

    @Test func pendingToInFlightToDone() throws {
        var item = try leased()
        #expect(item.state == .inFlight)
        #expect(item.lease == QueueLease(owner: 42, until: t0.adding(seconds: 300)))
        try item.succeed()
        #expect(item.state == .done && item.lease == nil && item.attempts == 1)
        #expect(throws: QueueItem.TransitionError.notLeased) { try item.succeed() }
    }

    @Test func aRetryableFailureWaitsAFullJitterDelay() throws {
        var item = try leased()
        // Attempt 1: up to base × 2^0 = 2 s; random 0.5 → 1 s.
        try item.fail(.retryable(reason: "503", notBeforeSeconds: nil), now: t0, policy: policy, random: 0.5)
        #expect(item.state == .failed && item.attempts == 1)
        #expect(item.nextAttempt == t0.adding(seconds: 1))
        #expect(!item.isReady(at: t0))
        #expect(item.isReady(at: t0.adding(seconds: 1)))
        // Attempt 2: up to 4 s; random 0.25 → 1 s, but Retry-After 7 s wins.
        try item.lease(owner: 42, now: t0.adding(seconds: 1), seconds: 300)
        try item.fail(
            .retryable(reason: "503", notBeforeSeconds: 7), now: t0.adding(seconds: 1), policy: policy, random: 0.25)
        #expect(item.nextAttempt == t0.adding(seconds: 8))
    }

    @Test func backoffIsCappedAndAttemptsRunOut() throws {
        #expect(policy.delaySeconds(afterAttempt: 10, random: 0.999_999, notBefore: nil) < 60)
        #expect(policy.delaySeconds(afterAttempt: 3, random: 1 - 1e-9, notBefore: nil) <= 8)
        var item = QueueItem(batchID: "b", tier: .batch, nextAttempt: t0)
        for attempt in 1...4 {
            try item.lease(owner: 1, now: item.nextAttempt, seconds: 60)
            try item.fail(
                .retryable(reason: "timeout", notBeforeSeconds: nil), now: item.nextAttempt, policy: policy, random: 0)
            #expect(item.state == (attempt < 4 ? .failed : .dead))
        }
        #expect(item.lastError?.contains("gave up after 4 attempts") == true)
    }

    @Test func aPermanentFailureIsDeadAtOnceAndCanBeRetriedByHand() throws {
        var item = try leased()
        try item.fail(.permanent(reason: "422 idempotency_key_reused"), now: t0, policy: policy, random: 0.3)
        #expect(item.state == .dead && item.attempts == 1)
        #expect(throws: QueueItem.TransitionError.notReady(.dead)) { try item.lease(owner: 1, now: t0, seconds: 1) }
        try item.retry(now: t0.adding(seconds: 5))
        #expect(item.state == .pending && item.attempts == 0 && item.lastError == nil)
        #expect(item.isReady(at: t0.adding(seconds: 5)))
    }

    /// Refused credentials are not the batch's fault: it waits, ready at once and no attempt
    /// counted, however often the token is refused.
    @Test func refusedCredentialsNeverKillABatch() throws {
        var item = try leased()
        for _ in 0..<(policy.maximumAttempts + 2) {
            try item.fail(.unauthorized(reason: "HTTP 401"), now: t0, policy: policy, random: 0.5)
            #expect(item.state == .failed && item.attempts == 0 && item.lastError == "HTTP 401")
            #expect(item.isReady(at: t0))
            try item.lease(owner: 1, now: t0, seconds: 10)
        }
    }

    @Test func anExpiredLeaseOrADeadHolderReturnsTheItemToPending() throws {
        var live = try leased()
        let early = live.reclaim(now: t0.adding(seconds: 10), isAlive: { _ in true })
        #expect(!early)
        #expect(live.state == .inFlight)
        let expired = live.reclaim(now: t0.adding(seconds: 300), isAlive: { _ in true })
        #expect(expired)
        #expect(live.state == .pending && live.attempts == 0)

        var orphaned = try leased()
        let holderGone = orphaned.reclaim(now: t0.adding(seconds: 1), isAlive: { $0 != 42 })
        #expect(holderGone)
        #expect(orphaned.state == .pending && orphaned.isReady(at: t0.adding(seconds: 1)))
    }

    @Test func onlyReadyItemsCanBeLeased() throws {
        var early = QueueItem(batchID: "b", tier: .batch, nextAttempt: t0.adding(seconds: 10))
        #expect(throws: QueueItem.TransitionError.notReady(.pending)) { try early.lease(owner: 1, now: t0, seconds: 1) }
        var done = try leased()
        try done.succeed()
        #expect(throws: QueueItem.TransitionError.notReady(.done)) { try done.lease(owner: 1, now: t0, seconds: 1) }
    }
}
