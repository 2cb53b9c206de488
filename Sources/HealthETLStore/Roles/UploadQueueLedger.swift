import HealthETLCore

/// The one retry queue every upload tier shares: batches stored before their first send, leased
/// by one sender at a time, recorded with what the sink said.
public protocol UploadQueueLedger: AnyObject {
    func enqueueUpload(
        batchID: String, tier: UploadTier, payload: [UInt8], samples: Int, deletions: Int,
        marks: [Store.UploadMark: Int64],
        realTimeSamples: [ContentID]
    ) throws
    func leaseNextUpload(
        owner: Int32, leaseSeconds: Int64, tiers: Set<UploadTier>, skipping: Set<String>, isAlive: (Int32) -> Bool
    ) throws -> (item: QueueItem, payload: [UInt8])?
    func recordUpload(_ item: QueueItem, heldBy owner: Int32, accepted: Int?, rejections: [ItemRejection]) throws
        -> Bool
    func nextUploadAttempt(tiers: Set<UploadTier>) throws -> Instant?
    func uploadCounts() throws -> [QueueState: Int]
    func uploads(in states: Set<QueueState>, limit: Int) throws -> [QueuedUpload]
    func retryUploads(batchID: String?) throws -> Int
    func purgeDeadUploads() throws -> Int
    func beginUploadRun(kind: String) throws -> Int64
    func finishUploadRun(id: Int64, summaryJSON: String) throws
}

extension Store: UploadQueueLedger {}
