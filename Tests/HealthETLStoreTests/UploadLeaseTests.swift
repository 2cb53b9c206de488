import HealthETLCore
import HealthETLTestSupport
import Testing

@testable import HealthETLStore

/// Only the holder of a batch's lease records what the sink said of it: once the lease was
/// reclaimed and given to another uploader, the first holder's late answer changes nothing.
@Suite struct UploadLeaseTests {
    let directory = TemporaryDirectory()
    let start = Instant(secondsSinceEpoch: 1_767_225_600)

    @Test func aReclaimedLeaseCannotBeRecordedByItsOldHolder() throws {
        let store = try Store(directory: StoreDirectory(path: directory.child("store")), clock: .fixed(start))
        try store.enqueueUpload(
            batchID: "b1-lease", tier: .batch, payload: [1, 2, 3], samples: 1, deletions: 0, marks: [:],
            realTimeSamples: [])
        let first = try #require(
            try store.leaseNextUpload(owner: 101, leaseSeconds: 300, tiers: [.batch], isAlive: { _ in true }))
        // The first holder looks gone to the second uploader, which reclaims the batch and leases it.
        let second = try #require(
            try store.leaseNextUpload(owner: 202, leaseSeconds: 300, tiers: [.batch], isAlive: { $0 != 101 }))
        #expect(second.item.batchID == first.item.batchID)

        var delivered = first.item
        try delivered.succeed()
        #expect(try store.recordUpload(delivered, heldBy: 101, accepted: 1, rejections: []) == false)
        var refused = first.item
        try refused.fail(.permanent(reason: "a late refusal"), now: start, policy: RetryPolicy(), random: 0)
        #expect(try store.recordUpload(refused, heldBy: 101, accepted: nil, rejections: []) == false)
        let held = try #require(try store.uploads(in: Set(QueueState.allCases), limit: 10).first)
        #expect(held.item.state == .inFlight && held.item.lease?.owner == 202 && held.item.attempts == 0)

        var current = second.item
        try current.succeed()
        #expect(try store.recordUpload(current, heldBy: 202, accepted: 1, rejections: []))
        #expect(try store.uploadCounts()[.done] == 1)
        // Done is final: neither holder's answer moves it again.
        #expect(try store.recordUpload(refused, heldBy: 202, accepted: nil, rejections: []) == false)
        #expect(try store.uploadCounts()[.done] == 1)
    }
}
